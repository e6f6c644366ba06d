import { QUERY_LIMITS } from './query-limits';
import { longerThan } from '../text/code-points';
import { FieldPath, JsonValue } from './query.types';
import { QueryError } from './query-error';

/**
 * Parses a dotted path. Segments are kept as data (bound parameters), never spliced into SQL,
 * so the grammar only has to reject what is meaningless: empty segments and over-long ones.
 * Names of inherited properties (`constructor`, `__proto__`, `toString`) are ordinary field
 * names (docs/query-language.md): every walk along a path reads own properties only, so they can only
 * match a field a record itself holds, which no record can since bodies refuse such keys.
 */
export function parseFieldPath(raw: unknown, where: string): FieldPath {
  if (typeof raw !== 'string' || raw.length === 0) throw new QueryError(`${where} must be a non-empty string`);
  const segments = raw.split('.');
  for (const segment of segments) {
    if (segment.length === 0) throw new QueryError(`${where} has an empty segment: "${raw}"`);
    if (longerThan(segment, QUERY_LIMITS.segmentLength))
      throw new QueryError(`${where} has a segment longer than ${QUERY_LIMITS.segmentLength} characters`);
  }
  return segments;
}

export function isPlainObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every value a path reaches, looking through lists at any level (Elasticsearch's rule, which the
 * original service followed): `actions.id` reaches the id of every action. A list at the end of
 * the path contributes its elements, and itself, so that whole-value comparisons still work.
 */
export function valuesAtPath(root: JsonValue | undefined, path: FieldPath): JsonValue[] {
  let current: JsonValue[] = root === undefined ? [] : [root];
  for (const segment of path) {
    const next: JsonValue[] = [];
    for (const value of current) collectMember(value, segment, next);
    current = next;
  }
  const reached: JsonValue[] = [];
  for (const value of current) {
    if (Array.isArray(value)) flattenInto(value, reached);
    reached.push(value);
  }
  return reached;
}

function collectMember(value: JsonValue, segment: string, into: JsonValue[]): void {
  if (Array.isArray(value)) {
    for (const element of value) collectMember(element, segment, into);
  } else if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, segment)) {
    into.push(value[segment]);
  }
}

function flattenInto(list: JsonValue[], into: JsonValue[]): void {
  for (const element of list) {
    if (Array.isArray(element)) flattenInto(element, into);
    else into.push(element);
  }
}
