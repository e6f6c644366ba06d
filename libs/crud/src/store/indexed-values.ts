import { isPlainObject } from '../core/query/field-path';
import { JsonObject, JsonValue } from '../core/query/query.types';
import { ValueIndex } from './value-index';

/** s string, n number, b boolean, z null, o object. Lists are looked through, never stored. */
export type ValueKind = 's' | 'n' | 'b' | 'z' | 'o';

export interface IndexedValue {
  path: string;
  kind: ValueKind;
  text: string | null;
  num: number | null;
}

/**
 * The values of a record at the paths `index` holds, one row each: the dotted path (list
 * positions dropped, so `actions.id` holds every action's id), its kind, its comparable text
 * and, for numbers, its number. Queries on those paths then use one B-tree on both databases;
 * this is the SQL twin of `valuesAtPath`, and it writes every value at a held path or none. The
 * top-level id is a column of its own and is skipped.
 */
export function indexedValues(record: JsonObject, index: ValueIndex): IndexedValue[] {
  const rows: IndexedValue[] = [];
  for (const key of Object.keys(record)) {
    if (key !== 'id') visit(record[key], undefined, key, false, index, rows);
  }
  return rows;
}

/**
 * Adds to `into` the paths that hold more than one of one record's `rows` (`indexedValues`): a
 * path no record ever added here is single-valued, and two bounds on it hold of one value
 * (migration 1764400000000). Most records give a few rows: compared pairwise, nothing allocated.
 */
export function addMultiValuedPaths(rows: readonly IndexedValue[], into: Set<string>): void {
  for (let i = 1; i < rows.length; i++) {
    const path = rows[i].path;
    for (let j = 0; j < i; j++) {
      if (rows[j].path === path) {
        into.add(path);
        break;
      }
    }
  }
}

function visit(
  value: JsonValue,
  parent: string | undefined,
  key: string,
  parentHeld: boolean,
  index: ValueIndex,
  rows: IndexedValue[],
): void {
  // A key holding a dot can never be named by a query path (its segments are split on dots), so
  // the evaluator never reaches it; indexing it would let `a.b` find `{"a.b": 1}` in SQL only.
  if (key.includes('.')) return;
  const path = parent === undefined ? key : `${parent}.${key}`;
  const held = index.holds(path, parentHeld);
  if (held || index.leadsTo(path)) collect(value, path, held, index, rows);
}

function collect(value: JsonValue, path: string, held: boolean, index: ValueIndex, rows: IndexedValue[]): void {
  if (Array.isArray(value)) {
    for (const element of value) collect(element, path, held, index, rows);
    return;
  }
  if (isPlainObject(value)) {
    if (held) rows.push({ path, kind: 'o', text: null, num: null });
    for (const key of Object.keys(value)) visit(value[key], path, key, held, index, rows);
    return;
  }
  if (!held) return;
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
