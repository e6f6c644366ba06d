import { isPlainObject } from '../core/query/field-path';
import { FieldPath, JsonObject, JsonValue } from '../core/query/query.types';

/** The selected paths as a tree: `true` keeps the whole value, a subtree keeps parts of it. */
type PathTree = Map<string, PathTree | true>;

/**
 * `select`: keeps exactly the named paths, nested as stored and in stored key order, plus the
 * id. A path through a list keeps that part of every element that has it. A path below one
 * that is kept whole adds nothing (`["a", "a.b"]` keeps `a`; `["id.x"]` keeps the id).
 *
 * Segments are client text (`__proto__`, `toString`), so the tree is a Map and the record is
 * read through its own keys only: no name can reach or change an inherited property.
 */
export function projectRecord(record: JsonObject, select: readonly FieldPath[]): JsonObject {
  const tree: PathTree = new Map([['id', true]]);
  for (const path of select) addPath(tree, path);
  return (pick(record, tree) as JsonObject | undefined) ?? { id: record.id };
}

function addPath(tree: PathTree, path: FieldPath): void {
  let node = tree;
  for (let position = 0; position < path.length; position++) {
    const segment = path[position];
    if (position === path.length - 1) {
      node.set(segment, true);
      return;
    }
    const child = node.get(segment);
    if (child === true) return;
    if (child === undefined) {
      const created: PathTree = new Map();
      node.set(segment, created);
      node = created;
    } else {
      node = child;
    }
  }
}

function pick(value: JsonValue, tree: PathTree): JsonValue | undefined {
  if (Array.isArray(value)) {
    const picked = value.map((element) => pick(element, tree)).filter((element) => element !== undefined);
    return picked.length > 0 ? picked : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  let out: JsonObject | undefined;
  for (const key of Object.keys(value)) {
    const branch = tree.get(key);
    if (branch === undefined) continue;
    const kept = branch === true ? value[key] : pick(value[key], branch);
    if (kept === undefined) continue;
    out ??= {};
    // JSON.parse makes `__proto__` an own key, which plain assignment would turn into a
    // prototype change of `out`; defining it keeps it an ordinary key.
    if (key === '__proto__') Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    else out[key] = kept;
  }
  return out;
}
