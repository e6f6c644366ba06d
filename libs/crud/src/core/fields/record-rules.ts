import { isPlainObject } from '../query/field-path';
import { jsonEquals } from '../query/json-equality';
import { JsonObject, JsonValue } from '../query/query.types';
import { ValidationProblems } from '../validation/validation-messages';
import { FieldNode, FieldTree, fieldTreeOf, SchemaClass } from './field-tree';
import { toDeclaredBoolean, toDeclaredInteger } from './conversions';

/** The ids one field of a record names in another family, keyed by the field's dotted path. */
export interface ReferenceCheck {
  path: string;
  index: string;
  ids: string[];
}

export const READ_ONLY_TEXT = 'read-only';
export const SERVER_SET_TEXT = 'set by the service';

/**
 * The field rules of one family's schema, applied to whole records (docs/relations.md). Every
 * function leaves its input untouched and shares unchanged branches with it.
 */
export class RecordRules {
  /** Dotted paths (list items without index) of lists that an update replaces whole. */
  readonly replacedOnUpdate: ReadonlySet<string>;
  /** The indices this family's references point into. */
  readonly referencedIndexes: ReadonlySet<string>;
  /** Nothing to do for a schema without rules: the event family's hot path stays as it was. */
  readonly isEmpty: boolean;

  private constructor(private readonly tree: FieldTree) {
    const replaced = new Set<string>();
    const indexes = new Set<string>();
    let anything = false;
    walkTree(tree, '', (node, path) => {
      if (node.rules.replacedOnUpdate) replaced.add(path);
      if (node.rules.references) indexes.add(node.rules.references.index);
      if (Object.keys(node.rules).length > 0 || node.defaultValue) anything = true;
    });
    this.replacedOnUpdate = replaced;
    this.referencedIndexes = indexes;
    this.isEmpty = !anything;
  }

  static of(schema: SchemaClass): RecordRules {
    return new RecordRules(fieldTreeOf(schema));
  }

  /** A client may not write a server-set field, not even to null. */
  serverSetProblems(body: JsonObject): ValidationProblems {
    const problems: ValidationProblems = {};
    visitValues(this.tree, body, '', (node, value, path) => {
      if (node.rules.serverSet && value !== undefined) problems[path] = SERVER_SET_TEXT;
    });
    return problems;
  }

  /** Booleans from the original's words and integers from digit strings; anything else is left for the validator. */
  convert(record: JsonObject): JsonObject {
    return mapObject(this.tree, record, (node, value) => {
      if (value === undefined || value === null) return value;
      if (node.rules.booleanWords) return toDeclaredBoolean(value) ?? value;
      if (node.rules.digitString) return toDeclaredInteger(value) ?? value;
      return value;
    });
  }

  /** Class-initializer defaults, for absent (or null) fields of every object present. */
  withDefaults(record: JsonObject): JsonObject {
    return mapObject(this.tree, record, (node, value) =>
      (value === undefined || value === null) && node.defaultValue ? structuredClone(node.defaultValue.value) : value,
    );
  }

  withoutWriteOnly(record: JsonObject): JsonObject {
    return mapObject(this.tree, record, (node, value) => (node.rules.writeOnly ? undefined : value));
  }

  /** Read-only fields (outside lists) whose merged value differs from the stored one. */
  readOnlyProblems(stored: JsonObject, merged: JsonObject): ValidationProblems {
    const problems: ValidationProblems = {};
    compareReadOnly(this.tree, stored, merged, '', problems);
    return problems;
  }

  /**
   * What the record's reference fields name. Given the stored record, only ids it did not
   * already name at that path: a reference is checked when it is set or changed, so an update
   * over a reference whose target has since been deleted still passes (docs/relations.md).
   */
  references(record: JsonObject, stored?: JsonObject): ReferenceCheck[] {
    const checks = collectReferences(this.tree, record);
    if (!stored || checks.length === 0) return checks;
    const before = new Map(collectReferences(this.tree, stored).map((check) => [check.path, new Set(check.ids)]));
    return checks
      .map((check) => ({ ...check, ids: check.ids.filter((id) => !before.get(check.path)?.has(id)) }))
      .filter((check) => check.ids.length > 0);
  }
}

function walkTree(tree: FieldTree, prefix: string, visit: (node: FieldNode, path: string) => void): void {
  for (const [name, node] of tree) {
    const path = prefix + name;
    visit(node, path);
    if (node.nested) walkTree(node.nested, `${path}.`, visit);
  }
}

function own(object: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Calls `visit` for each declared field of `object`, then for those of nested objects and list items (paths carry indices). */
function visitValues(
  tree: FieldTree,
  object: JsonObject,
  prefix: string,
  visit: (node: FieldNode, value: JsonValue | undefined, path: string) => void,
): void {
  for (const [name, node] of tree) {
    const value = own(object, name);
    const path = prefix + name;
    visit(node, value, path);
    if (!node.nested || value === undefined) continue;
    if (isPlainObject(value)) visitValues(node.nested, value, `${path}.`, visit);
    else if (Array.isArray(value))
      value.forEach((item, index) => isPlainObject(item) && visitValues(node.nested!, item, `${path}.${index}.`, visit));
  }
}

/**
 * Copy-on-write map over declared fields: `change` sees each field's value (undefined when
 * absent) and answers the new one (undefined removes it); nested objects and list items are
 * mapped with their own class's fields.
 */
function mapObject(
  tree: FieldTree,
  object: JsonObject,
  change: (node: FieldNode, value: JsonValue | undefined) => JsonValue | undefined,
): JsonObject {
  let copy: JsonObject | undefined;
  for (const [name, node] of tree) {
    const value = own(object, name);
    let next = change(node, value);
    if (node.nested && next !== undefined) next = mapNested(node.nested, next, change);
    if (next === value) continue;
    copy ??= { ...object };
    if (next === undefined) delete copy[name];
    else Object.defineProperty(copy, name, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? object;
}

function mapNested(
  tree: FieldTree,
  value: JsonValue,
  change: (node: FieldNode, value: JsonValue | undefined) => JsonValue | undefined,
): JsonValue {
  if (isPlainObject(value)) return mapObject(tree, value, change);
  if (!Array.isArray(value)) return value;
  let copy: JsonValue[] | undefined;
  value.forEach((item, index) => {
    if (!isPlainObject(item)) return;
    const next = mapObject(tree, item, change);
    if (next === item) return;
    copy ??= value.slice();
    copy[index] = next;
  });
  return copy ?? value;
}

function compareReadOnly(tree: FieldTree, stored: JsonObject, merged: JsonObject, prefix: string, problems: ValidationProblems): void {
  for (const [name, node] of tree) {
    const before = own(stored, name);
    const after = own(merged, name);
    const path = prefix + name;
    if (node.rules.readOnly) {
      if (!sameValue(before, after)) problems[path] = READ_ONLY_TEXT;
    } else if (node.nested && isPlainObject(before) && isPlainObject(after)) {
      compareReadOnly(node.nested, before, after, `${path}.`, problems);
    }
  }
}

function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return jsonEquals(a, b);
}

function collectReferences(tree: FieldTree, record: JsonObject): ReferenceCheck[] {
  const checks: ReferenceCheck[] = [];
  visitValues(tree, record, '', (node, value, path) => {
    const target = node.rules.references;
    if (!target || value === undefined || value === null) return;
    const ids = referencedIds(value, target.lines);
    if (ids.length > 0) checks.push({ path, index: target.index, ids });
  });
  return checks;
}

/** Strings only: a value of another type is the validator's to report, and names nothing. */
function referencedIds(value: JsonValue, lines: boolean): string[] {
  const values = Array.isArray(value) ? value : [value];
  const ids: string[] = [];
  for (const item of values) {
    if (typeof item !== 'string') continue;
    if (lines && !Array.isArray(value)) {
      for (const line of item.split('\n')) {
        const id = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (id.length > 0) ids.push(id);
      }
    } else {
      ids.push(item);
    }
  }
  return [...new Set(ids)];
}
