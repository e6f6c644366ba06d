import { JsonValue } from './query.types';

/**
 * The text a scalar is compared by when the comparison is not numeric: a string is itself, a
 * number or boolean is its JSON text (the original sent every `expr` as a string, so "5" must
 * find 5). Objects, lists and null have none. The SQL stores index the same text.
 */
export function scalarText(value: JsonValue): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    default:
      return undefined;
  }
}
