import { getMetadataStorage } from 'class-validator';
import { JsonValue } from '../query/query.types';
import { declaredFieldRules, FieldRuleSet } from './field-rules.decorators';

// class-transformer keeps its @Type metadata in an internal module without a typed entry point.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

export type SchemaClass = new () => object;

/** One declared field of a schema class: its rules, its default, and the class of its value if nested. */
export interface FieldNode {
  rules: FieldRuleSet;
  /** Present when the class initializes the field: the value stored when a new record omits it. */
  defaultValue?: { value: JsonValue };
  nested?: FieldTree;
  nestedClass?: SchemaClass;
}

export type FieldTree = ReadonlyMap<string, FieldNode>;

const trees = new WeakMap<SchemaClass, FieldTree>();

/**
 * The declared fields of a schema and of every class nested in it (through `@Type`), read once
 * from the decorators' metadata. Recursion through a class that nests itself stops at the
 * second visit: such a tree has no rules below that point.
 */
export function fieldTreeOf(schema: SchemaClass): FieldTree {
  return build(schema, new Set());
}

function build(schema: SchemaClass, visiting: Set<SchemaClass>): FieldTree {
  const known = trees.get(schema);
  if (known) return known;
  const tree = new Map<string, FieldNode>();
  if (visiting.has(schema)) return tree;
  visiting.add(schema);
  const defaults = initializerDefaults(schema);
  for (const name of declaredProperties(schema)) {
    const node: FieldNode = { rules: declaredFieldRules(schema).get(name) ?? {} };
    if (Object.prototype.hasOwnProperty.call(defaults, name)) node.defaultValue = { value: defaults[name] };
    const nestedClass = defaultMetadataStorage.findTypeMetadata(schema, name)?.typeFunction() as SchemaClass | undefined;
    if (nestedClass) {
      node.nestedClass = nestedClass;
      node.nested = build(nestedClass, visiting);
    }
    tree.set(name, node);
  }
  visiting.delete(schema);
  trees.set(schema, tree);
  return tree;
}

/** Every property a schema mentions: validated, ruled, nested or initialized. */
export function declaredProperties(schema: SchemaClass): string[] {
  const names = new Set<string>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false)) names.add(meta.propertyName);
  for (const name of declaredFieldRules(schema).keys()) names.add(name);
  for (const name of Object.keys(initializerDefaults(schema))) names.add(name);
  return [...names];
}

/**
 * A class initializer (`https?: boolean = false`) is the field's default. The values are read
 * from one instance and handed out as JSON copies, so no two records share an object.
 */
export function initializerDefaults(schema: SchemaClass): Record<string, JsonValue> {
  const instance = new schema() as Record<string, unknown>;
  const defaults: Record<string, JsonValue> = {};
  for (const key of Object.keys(instance)) {
    if (instance[key] !== undefined) defaults[key] = JSON.parse(JSON.stringify(instance[key])) as JsonValue;
  }
  return defaults;
}
