import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { RecordSchema } from '../core/validation/record-validator';
import { MAX_ID_LENGTH } from '../core/ids/record-id';
import { declaredFieldRules, FieldRuleSet } from '../core/fields/field-rules.decorators';
import { declaredProperties, initializerDefaults } from '../core/fields/field-tree';

// class-transformer keeps its @Type metadata in an internal module without a typed entry point.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

type OpenApiSchema = Record<string, unknown>;

/** @nestjs/swagger's metadata key for `@ApiProperty` (DECORATORS.API_MODEL_PROPERTIES). */
const API_PROPERTY_METADATA = 'swagger/apiModelProperties';

/** What each validation constraint says about a property's JSON schema. */
const CONSTRAINT_SCHEMAS: Record<string, (constraints: unknown[]) => OpenApiSchema> = {
  isString: () => ({ type: 'string' }),
  isBoolean: () => ({ type: 'boolean' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  min: (constraints) => ({ minimum: constraints[0] }),
  max: (constraints) => ({ maximum: constraints[0] }),
  isIso8601: () => ({ type: 'string', format: 'date-time' }),
  isDateString: () => ({ type: 'string', format: 'date-time' }),
  isIn: (constraints) => ({ enum: constraints[0] }),
  isEnum: (constraints) => ({ enum: constraints[1] }),
  isStringOrStringList: () => ({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
  uniqueIds: () => ({ description: 'items are merged by id; ids are unique' }),
};

/** What a reference's description needs to know of its target. */
export interface ReferenceTarget {
  resourceName: string;
  path: string;
}

export interface SchemaDocumentOptions {
  /** The family a reference's index names, if registered. */
  referenceTarget?: (index: string) => ReferenceTarget | undefined;
}

/**
 * OpenAPI schemas read from a family's class-validator, class-transformer, field-rule and
 * `@ApiProperty` metadata, so the document cannot drift from what the service validates.
 * Undeclared fields are allowed (`additionalProperties`), as the service keeps them.
 *
 * Two sets of components: the record as created (and as read), and `<Root>.Patch`, the body of
 * an update, where nothing is required at any depth because it is merged into the stored record.
 * Nested classes are named under their family (`ExecEnv.Lcp`), so two families may each have a
 * class called `Parameter` without one overwriting the other.
 */
export function schemaComponents(root: RecordSchema, rootName: string, options: SchemaDocumentOptions = {}): Record<string, OpenApiSchema> {
  const components: Record<string, OpenApiSchema> = {};
  new ComponentWriter(rootName, components, options).write(root, rootName, true, false);
  new ComponentWriter(rootName, components, options).write(root, patchName(rootName), true, true);
  return components;
}

export function patchName(componentName: string): string {
  return `${componentName}.Patch`;
}

class ComponentWriter {
  constructor(
    private readonly rootName: string,
    private readonly components: Record<string, OpenApiSchema>,
    private readonly options: SchemaDocumentOptions,
  ) {}

  write(target: RecordSchema, name: string, isRecord: boolean, partial: boolean): void {
    if (this.components[name]) return;
    const properties: Record<string, OpenApiSchema> = {};
    const required: string[] = [];
    const component: OpenApiSchema = { type: 'object', properties, additionalProperties: true };
    if (partial && isRecord) {
      component.description = 'Merged into the stored record: objects merge, null removes a field, lists of objects with id merge by id.';
    }
    this.components[name] = component;
    if (isRecord) {
      properties.id = { type: 'string', maxLength: MAX_ID_LENGTH, description: 'record id; generated (UUIDv7) when omitted' };
    }
    const defaults = initializerDefaults(target);
    const rules = declaredFieldRules(target);
    const validations = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
    for (const propertyName of declaredProperties(target)) {
      const property: OpenApiSchema = (properties[propertyName] = {});
      const own = validations.filter((meta) => meta.propertyName === propertyName);
      for (const meta of own) describeConstraint(property, meta);
      const isRequired = own.some((meta) => constraintName(meta) === 'isDefined');
      if (Object.prototype.hasOwnProperty.call(defaults, propertyName)) property.default = defaults[propertyName];
      else if (isRequired && !partial) required.push(propertyName);
      Object.assign(property, apiProperty(target, propertyName));
      this.nest(target, propertyName, properties, own, partial);
      this.describeRules(properties[propertyName], rules.get(propertyName) ?? {});
      // An array of anything still says so: `items` is required next to `type: array`.
      if (properties[propertyName].type === 'array' && !properties[propertyName].items) properties[propertyName].items = {};
      // In an update, null removes the field.
      if (partial) properties[propertyName].nullable = true;
    }
    if (required.length > 0) component.required = required;
  }

  private nest(
    target: RecordSchema,
    propertyName: string,
    properties: Record<string, OpenApiSchema>,
    own: ValidationMetadata[],
    partial: boolean,
  ): void {
    const nested = defaultMetadataStorage.findTypeMetadata(target, propertyName)?.typeFunction() as RecordSchema | undefined;
    if (!nested) return;
    const createName = this.nestedName(nested);
    this.write(nested, createName, false, false);
    const name = partial ? patchName(createName) : createName;
    if (partial) this.write(nested, name, false, true);
    const reference = { $ref: `#/components/schemas/${name}` };
    const property = properties[propertyName];
    if (own.some((meta) => constraintName(meta) === 'isObjectOrList')) {
      properties[propertyName] = { ...property, oneOf: [reference, { type: 'array', items: reference }] };
    } else if (property.type === 'array') {
      property.items = reference;
    } else {
      delete property.type;
      properties[propertyName] = { ...property, allOf: [reference] };
    }
  }

  private nestedName(nested: RecordSchema): string {
    const own =
      nested.name.startsWith(this.rootName) && nested.name.length > this.rootName.length
        ? nested.name.slice(this.rootName.length)
        : nested.name;
    return `${this.rootName}.${own}`;
  }

  private describeRules(property: OpenApiSchema, rules: FieldRuleSet): void {
    const notes: string[] = [];
    if (rules.references) {
      const target = this.options.referenceTarget?.(rules.references.index);
      property['x-references'] = rules.references.index;
      const each = property.type === 'array' || property.oneOf ? 'Each id names' : 'Names';
      notes.push(
        target
          ? `${each} a record of ${target.resourceName} (\`/${target.path}\`), which must exist when it is set or changed.`
          : `${each} a record of \`${rules.references.index}\`.`,
      );
    }
    if (rules.readOnly) {
      property.readOnly = true;
      notes.push('Read-only: may be given on create; an update may repeat it but not change it.');
    }
    if (rules.serverSet) {
      property.readOnly = true;
      notes.push('Set by the service; refused from clients.');
    }
    if (rules.writeOnly) {
      property.writeOnly = true;
      notes.push('Validated, then dropped: never stored.');
    }
    if (rules.replacedOnUpdate) notes.push('Replaced whole on update, never merged by id.');
    if (rules.booleanWords)
      notes.push('Also accepts yes/no, y/n, on/off, t/f, true/false, 1/0 (any case) and the numbers 1/0; stored as a boolean.');
    if (rules.digitString) notes.push('Also accepts a string of digits; stored as a number.');
    if (notes.length === 0) return;
    property.description = [property.description, ...notes].filter(Boolean).map(asSentence).join(' ');
  }
}

function asSentence(text: unknown): string {
  const sentence = String(text).trim();
  const capitalised = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

function constraintName(meta: ValidationMetadata): string {
  return meta.name ?? meta.type;
}

function describeConstraint(property: OpenApiSchema, meta: ValidationMetadata): void {
  const describe = CONSTRAINT_SCHEMAS[constraintName(meta)];
  if (!describe) return;
  const schema = describe(meta.constraints ?? []);
  if (meta.each) {
    property.type ??= 'array';
    property.items = { ...(property.items as object), ...schema };
  } else {
    Object.assign(property, schema);
  }
}

/** `@ApiProperty` description and example win over what the constraints say; other options are left to the constraints. */
function apiProperty(target: RecordSchema, propertyName: string): OpenApiSchema {
  const declared = Reflect.getMetadata(API_PROPERTY_METADATA, target.prototype as object, propertyName) as OpenApiSchema | undefined;
  if (!declared) return {};
  const honoured: OpenApiSchema = {};
  for (const key of ['description', 'example', 'examples', 'format', 'deprecated'] as const) {
    if (declared[key] !== undefined) honoured[key] = declared[key];
  }
  return honoured;
}
