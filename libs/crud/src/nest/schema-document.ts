import { getMetadataStorage } from 'class-validator';
import { RecordSchema } from '../core/validation/record-validator';
import { MAX_ID_LENGTH } from '../core/ids/record-id';

// class-transformer keeps its @Type metadata in an internal module without a typed entry point.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

type OpenApiSchema = Record<string, unknown>;

/** What each validation constraint says about a property's JSON schema. */
const CONSTRAINT_SCHEMAS: Record<string, (constraints: unknown[]) => OpenApiSchema> = {
  isString: () => ({ type: 'string' }),
  isBoolean: () => ({ type: 'boolean' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isIn: (constraints) => ({ enum: constraints[0] as unknown[] }),
  isStringOrStringList: () => ({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
  uniqueIds: () => ({ description: 'items are merged by id; ids are unique' }),
};

/**
 * OpenAPI schemas read from a family's class-validator and class-transformer metadata, so the
 * document cannot drift from what the service validates. Undeclared fields are allowed
 * (`additionalProperties`), as the service keeps them. Nested classes become components.
 */
export function schemaComponents(root: RecordSchema, rootName: string): Record<string, OpenApiSchema> {
  const components: Record<string, OpenApiSchema> = {};
  const visit = (target: RecordSchema, name: string, isRecord: boolean) => {
    if (components[name]) return;
    const properties: Record<string, OpenApiSchema> = {};
    const required: string[] = [];
    if (isRecord) {
      properties.id = { type: 'string', maxLength: MAX_ID_LENGTH, description: 'record id; generated (UUIDv7) when omitted' };
    }
    components[name] = { type: 'object', properties, required, additionalProperties: true };
    for (const meta of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
      const property = (properties[meta.propertyName] ??= {});
      const constraint = meta.name ?? meta.type;
      if (constraint === 'isDefined') required.push(meta.propertyName);
      const describe = CONSTRAINT_SCHEMAS[constraint];
      if (!describe) continue;
      const schema = describe(meta.constraints ?? []);
      if (meta.each) property.items = { ...(property.items as object), ...schema };
      else Object.assign(property, schema);
    }
    for (const [propertyName, property] of Object.entries(properties)) {
      const nested = defaultMetadataStorage.findTypeMetadata(target, propertyName)?.typeFunction() as RecordSchema | undefined;
      if (!nested) continue;
      visit(nested, nested.name, false);
      const reference = { $ref: `#/components/schemas/${nested.name}` };
      if (property.type === 'array') property.items = reference;
      else properties[propertyName] = { allOf: [reference] };
    }
    if (required.length === 0) delete components[name].required;
  };
  visit(root, rootName, true);
  return components;
}
