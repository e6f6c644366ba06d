import { isPlainObject } from '../query/field-path';
import { JsonObject, JsonValue } from '../query/query.types';
import { RecordProblems } from '../validation/record-problems';
import { RESERVED_KEY_PROBLEM, ValidationProblems } from '../validation/validation-messages';

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
 * removes a field, lists whose patch items all carry an `id` merge item by item into a stored list
 * of such items, any other list (and any list in `options.replaced`) is replaced whole. Neither
 * input is modified; untouched branches are shared with `stored`.
 *
 * A part of the patch that cannot be merged (a `$` key, a `$patch` other than "delete") is left
 * out of `merged` and reported in `problems`, by its path, so that the caller can report them
 * together with what validating `merged` finds: every problem of an item at once.
 */
export function mergeRecordWithProblems(
  stored: JsonObject,
  patch: JsonObject,
  options: MergeOptions = {},
): { merged: JsonObject; problems: ValidationProblems } {
  const problems: ValidationProblems = {};
  const merged = new Merge(options.replaced ?? NOTHING_REPLACED, problems).objects(stored, patch, '');
  return { merged, problems };
}

/** `mergeRecordWithProblems`, throwing its problems (all of them) if there are any. */
export function mergeRecord(stored: JsonObject, patch: JsonObject, options: MergeOptions = {}): JsonObject {
  const { merged, problems } = mergeRecordWithProblems(stored, patch, options);
  if (Object.keys(problems).length > 0) throw new RecordProblems(problems);
  return merged;
}

const NOTHING_REPLACED: ReadonlySet<string> = new Set();

/** One merge: the paths replaced whole, and where the patch's problems are collected. */
class Merge {
  constructor(
    private readonly replaced: ReadonlySet<string>,
    private readonly problems: ValidationProblems,
  ) {}

  /** `where` is the dotted prefix of the value being merged, e.g. `actions.`. */
  objects(stored: JsonObject, patch: JsonObject, where: string): JsonObject {
    const merged: JsonObject = { ...stored };
    for (const key of Object.keys(patch)) {
      if (key.startsWith('$')) {
        this.problems[`${where}${key}`] = RESERVED_KEY_PROBLEM;
        continue;
      }
      const value = patch[key];
      if (value === null) {
        delete merged[key];
      } else {
        setOwn(merged, key, this.values(ownValue(stored, key), value, `${where}${key}.`));
      }
    }
    return merged;
  }

  private values(stored: JsonValue | undefined, patch: JsonValue, where: string): JsonValue {
    // A value replaced whole stays what was sent, object or list (`operations` takes both forms).
    if (this.replacedWhole(where)) return this.withoutNulls(patch, where);
    if (isPlainObject(patch)) {
      return isPlainObject(stored) ? this.objects(stored, patch, where) : this.withoutNulls(patch, where);
    }
    if (Array.isArray(patch)) {
      // Merged by id only into a list of such items: a stored list of anything else is replaced.
      if (isIdList(patch) && (!Array.isArray(stored) || stored.length === 0 || isIdList(stored))) {
        return this.idList(Array.isArray(stored) ? stored : [], patch, where);
      }
      return patch.map((item) => this.withoutNulls(item, where));
    }
    return patch;
  }

  private replacedWhole(where: string): boolean {
    return this.replaced.size > 0 && this.replaced.has(where.slice(0, -1));
  }

  private idList(stored: JsonValue[], patch: JsonObject[], where: string): JsonValue[] {
    const merged: JsonValue[] = stored.slice();
    for (const item of patch) {
      const position = merged.findIndex((existing) => isPlainObject(existing) && sameId(existing.id, item.id));
      const directive = item[PATCH_KEY];
      if (directive !== undefined) {
        if (directive !== 'delete') this.problems[`${where}${PATCH_KEY}`] = 'must be "delete"';
        else if (position >= 0) merged.splice(position, 1);
        continue;
      }
      if (position >= 0) merged[position] = this.objects(merged[position] as JsonObject, item, where);
      else merged.push(this.withoutNulls(item, where));
    }
    return merged;
  }

  /** New content has no stored value to remove, so its nulls are dropped like any other null. */
  private withoutNulls(value: JsonValue, where: string): JsonValue {
    if (Array.isArray(value)) return value.map((item) => this.withoutNulls(item, where));
    if (!isPlainObject(value)) return value;
    const copy: JsonObject = {};
    for (const key of Object.keys(value)) {
      if (key.startsWith('$')) this.problems[`${where}${key}`] = RESERVED_KEY_PROBLEM;
      else if (value[key] !== null) setOwn(copy, key, this.withoutNulls(value[key], `${where}${key}.`));
    }
    return copy;
  }
}

function isIdList(list: JsonValue[]): list is JsonObject[] {
  return list.length > 0 && list.every((item) => isPlainObject(item) && item.id !== undefined && item.id !== null);
}

function sameId(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a === b;
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
