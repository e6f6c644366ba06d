import { JsonValue } from '../query/query.types';

// The words marshmallow's Boolean field accepts, which the original's clients send (`"enabled": "Yes"`).
const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', 'off', '0']);

/** The boolean a declared boolean field stores for `value`, or undefined when it names none. */
export function toDeclaredBoolean(value: JsonValue): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** The integer a declared integer field stores for a string of digits; other values are left to the validator. */
export function toDeclaredInteger(value: JsonValue): number | undefined {
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value)) return undefined;
  return Number(value);
}
