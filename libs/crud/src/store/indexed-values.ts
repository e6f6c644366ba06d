import { isPlainObject } from '../core/query/field-path';
import { JsonObject, JsonValue } from '../core/query/query.types';

/** s string, n number, b boolean, z null, o object. Lists are looked through, never stored. */
export type ValueKind = 's' | 'n' | 'b' | 'z' | 'o';

export interface IndexedValue {
  path: string;
  kind: ValueKind;
  text: string | null;
  num: number | null;
}

/**
 * Every value of a record as one row of the value index: the dotted path (list positions
 * dropped, so `actions.id` holds every action's id), its kind, its comparable text and, for
 * numbers, its number. Queries on any path then use one B-tree on both databases; this is the
 * SQL twin of `valuesAtPath`. The top-level id is a column of its own and is skipped.
 */
export function indexedValues(record: JsonObject): IndexedValue[] {
  const rows: IndexedValue[] = [];
  for (const key of Object.keys(record)) {
    if (key !== 'id' && reachable(key) && isIndexedPath(key)) collect(record[key], key, rows);
  }
  return rows;
}

function collect(value: JsonValue, path: string, rows: IndexedValue[]): void {
  if (Array.isArray(value)) {
    for (const element of value) collect(element, path, rows);
    return;
  }
  if (isPlainObject(value)) {
    rows.push({ path, kind: 'o', text: null, num: null });
    for (const key of Object.keys(value)) {
      const child = `${path}.${key}`;
      if (reachable(key) && isIndexedPath(child)) collect(value[key], child, rows);
    }
    return;
  }
  switch (typeof value) {
    case 'string':
      rows.push({ path, kind: 's', text: value, num: null });
      return;
    case 'number':
      rows.push({ path, kind: 'n', text: JSON.stringify(value), num: value });
      return;
    case 'boolean':
      rows.push({ path, kind: 'b', text: String(value), num: null });
      return;
    default:
      rows.push({ path, kind: 'z', text: null, num: null });
  }
}

/**
 * A key holding a dot can never be named by a query path (its segments are split on dots), so
 * the evaluator never reaches it; indexing it would let `a.b` find `{"a.b": 1}` in SQL only.
 */
function reachable(key: string): boolean {
  return !key.includes('.');
}

/**
 * Longer paths are not indexed, which keeps every index entry inside PostgreSQL's B-tree row
 * limit; a query on such a path is answered by the in-memory evaluator instead.
 */
export const MAX_INDEXED_PATH_LENGTH = 256;

export function isIndexedPath(path: string): boolean {
  return path.length <= MAX_INDEXED_PATH_LENGTH;
}
