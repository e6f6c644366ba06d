import { isPlainObject } from '../core/query/field-path';
import { FieldPath, JsonObject, JsonValue } from '../core/query/query.types';

interface PathTree {
  [segment: string]: PathTree | true;
}

/**
 * `select`: keeps only the named paths, nested as stored and in stored key order, plus the id.
 * A path through a list keeps that part of every element that has it.
 */
export function projectRecord(record: JsonObject, select: readonly FieldPath[]): JsonObject {
  const tree: PathTree = { id: true };
  for (const path of select) {
    let node = tree;
    path.forEach((segment, position) => {
      if (position === path.length - 1) node[segment] = true;
      else {
        const child = node[segment];
        if (child === true) return;
        node = node[segment] = child ?? {};
      }
    });
  }
  return (pick(record, tree) as JsonObject | undefined) ?? { id: record.id };
}

function pick(value: JsonValue, tree: PathTree): JsonValue | undefined {
  if (Array.isArray(value)) {
    const picked = value.map((element) => pick(element, tree)).filter((element) => element !== undefined);
    return picked.length > 0 ? (picked as JsonValue[]) : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  let out: JsonObject | undefined;
  for (const key of Object.keys(value)) {
    const branch = Object.prototype.hasOwnProperty.call(tree, key) ? tree[key] : undefined;
    if (branch === undefined) continue;
    const kept = branch === true ? value[key] : pick(value[key], branch);
    if (kept === undefined) continue;
    out ??= {};
    out[key] = kept;
  }
  return out;
}
