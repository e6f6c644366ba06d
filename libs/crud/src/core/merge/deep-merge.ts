import { isPlainObject } from '../query/field-path';
import { JsonObject, JsonValue } from '../query/query.types';
import { RecordProblems } from '../validation/record-problems';
import { RESERVED_KEY_PROBLEM } from '../validation/validation-messages';

/** The strategic-merge marker: `{"id": "x", "$patch": "delete"}` removes item x from its list. */
export const PATCH_KEY = '$patch';

export interface MergeOptions {
  /**
   * Dotted paths (list items without index, e.g. `actions`) of values replaced whole: lists even
   * when their items carry ids (their ids repeat, or the list is the last request, not a
   * history), and objects instead of merged.
   */
  replaced?: ReadonlySet<string>;
}

/**
 * Merges an update body into a stored record (docs/writes-and-merge.md): objects merge deeply, `null`
 * removes a field, lists whose patch items all carry an `id` merge item by item, any other list
 * (and any list in `options.replaced`) is replaced whole. Neither input is modified; untouched
 * branches are shared with `stored`.
 */
export function mergeRecord(stored: JsonObject, patch: JsonObject, options: MergeOptions = {}): JsonObject {
  return mergeObjects(stored, patch, '', options.replaced ?? NOTHING_REPLACED);
}

const NOTHING_REPLACED: ReadonlySet<string> = new Set();

/** `where` is the dotted prefix of the value being merged, e.g. `actions.`. */
function replacedWhole(replaced: ReadonlySet<string>, where: string): boolean {
  return replaced.size > 0 && replaced.has(where.slice(0, -1));
}

function mergeObjects(stored: JsonObject, patch: JsonObject, where: string, replaced: ReadonlySet<string>): JsonObject {
  const merged: JsonObject = { ...stored };
  for (const key of Object.keys(patch)) {
    if (key.startsWith('$')) throw RecordProblems.at(`${where}${key}`, RESERVED_KEY_PROBLEM);
    const value = patch[key];
    if (value === null) {
      delete merged[key];
    } else {
      setOwn(merged, key, mergeValues(ownValue(stored, key), value, `${where}${key}.`, replaced));
    }
  }
  return merged;
}

function mergeValues(stored: JsonValue | undefined, patch: JsonValue, where: string, replaced: ReadonlySet<string>): JsonValue {
  // A value replaced whole stays what was sent, object or list (`operations` takes both forms).
  if (replacedWhole(replaced, where)) return withoutNulls(patch, where);
  if (isPlainObject(patch)) {
    return isPlainObject(stored) ? mergeObjects(stored, patch, where, replaced) : withoutNulls(patch, where);
  }
  if (Array.isArray(patch)) {
    if (isIdList(patch)) return mergeIdList(Array.isArray(stored) ? stored : [], patch, where, replaced);
    return patch.map((item) => withoutNulls(item, where));
  }
  return patch;
}

function isIdList(list: JsonValue[]): list is JsonObject[] {
  return list.length > 0 && list.every((item) => isPlainObject(item) && item.id !== undefined && item.id !== null);
}

function mergeIdList(stored: JsonValue[], patch: JsonObject[], where: string, replaced: ReadonlySet<string>): JsonValue[] {
  const merged = stored.slice();
  for (const item of patch) {
    const position = merged.findIndex((existing) => isPlainObject(existing) && sameId(existing.id, item.id));
    const directive = item[PATCH_KEY];
    if (directive !== undefined) {
      if (directive !== 'delete') throw RecordProblems.at(`${where}${PATCH_KEY}`, 'must be "delete"');
      if (position >= 0) merged.splice(position, 1);
      continue;
    }
    if (position >= 0) merged[position] = mergeObjects(merged[position] as JsonObject, item, where, replaced);
    else merged.push(withoutNulls(item, where));
  }
  return merged;
}

function sameId(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a === b;
}

/** New content has no stored value to remove, so its nulls are dropped like any other null. */
function withoutNulls(value: JsonValue, where: string): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item, where));
  if (!isPlainObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) {
    if (key.startsWith('$')) throw RecordProblems.at(`${where}${key}`, RESERVED_KEY_PROBLEM);
    if (value[key] !== null) setOwn(copy, key, withoutNulls(value[key], `${where}${key}.`));
  }
  return copy;
}

/**
 * Keys are data: `stored.constructor` must not find Object, and assigning `__proto__` must not
 * swap the merged object's prototype. (The body guard refuses these keys first; this keeps the
 * merge sound on its own.)
 */
function ownValue(object: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
