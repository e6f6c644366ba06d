import { isPlainObject } from '../query/field-path';
import { JsonObject, JsonValue } from '../query/query.types';
import { RecordProblems } from '../validation/record-problems';

/** The strategic-merge marker: `{"id": "x", "$patch": "delete"}` removes item x from its list. */
export const PATCH_KEY = '$patch';

/**
 * Merges an update body into a stored record (CONTRACT.md §5): objects merge deeply, `null`
 * removes a field, lists whose patch items all carry an `id` merge item by item, any other list
 * is replaced whole. Neither input is modified; untouched branches are shared with `stored`.
 */
export function mergeRecord(stored: JsonObject, patch: JsonObject): JsonObject {
  return mergeObjects(stored, patch, '');
}

function mergeObjects(stored: JsonObject, patch: JsonObject, where: string): JsonObject {
  const merged: JsonObject = { ...stored };
  for (const key of Object.keys(patch)) {
    if (key.startsWith('$')) throw RecordProblems.at(`${where}${key}`, 'keys starting with $ are reserved');
    const value = patch[key];
    if (value === null) {
      delete merged[key];
    } else {
      setOwn(merged, key, mergeValues(ownValue(stored, key), value, `${where}${key}.`));
    }
  }
  return merged;
}

function mergeValues(stored: JsonValue | undefined, patch: JsonValue, where: string): JsonValue {
  if (isPlainObject(patch)) {
    return isPlainObject(stored) ? mergeObjects(stored, patch, where) : withoutNulls(patch, where);
  }
  if (Array.isArray(patch)) {
    if (isIdList(patch)) return mergeIdList(Array.isArray(stored) ? stored : [], patch, where);
    return patch.map((item) => withoutNulls(item, where));
  }
  return patch;
}

function isIdList(list: JsonValue[]): list is JsonObject[] {
  return list.length > 0 && list.every((item) => isPlainObject(item) && item.id !== undefined && item.id !== null);
}

function mergeIdList(stored: JsonValue[], patch: JsonObject[], where: string): JsonValue[] {
  const merged = stored.slice();
  for (const item of patch) {
    const position = merged.findIndex((existing) => isPlainObject(existing) && sameId(existing.id, item.id));
    const directive = item[PATCH_KEY];
    if (directive !== undefined) {
      if (directive !== 'delete') throw RecordProblems.at(`${where}${PATCH_KEY}`, 'must be "delete"');
      if (position >= 0) merged.splice(position, 1);
      continue;
    }
    if (position >= 0) merged[position] = mergeObjects(merged[position] as JsonObject, item, where);
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
    if (key.startsWith('$')) throw RecordProblems.at(`${where}${key}`, 'keys starting with $ are reserved');
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
