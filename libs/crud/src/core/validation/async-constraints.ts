import { getMetadataStorage } from 'class-validator';
import { RecordSchema } from './record-validator';

// class-transformer keeps its @Type metadata in an internal module without a typed entry point.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/**
 * The async constraints a schema (or a class nested in it) declares, as `path (constraint)`.
 * Records are validated synchronously, inside the write's transaction, where class-validator
 * would skip an async constraint and accept the record: a family that declares one must not start.
 */
export function asyncConstraints(schema: RecordSchema, prefix = '', seen = new Set<RecordSchema>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const storage = getMetadataStorage();
  const found: string[] = [];
  for (const meta of storage.getTargetValidationMetadatas(schema, '', true, false)) {
    const isAsync = meta.constraintCls && storage.getTargetValidatorConstraints(meta.constraintCls).some((constraint) => constraint.async);
    if (isAsync) found.push(`${prefix}${meta.propertyName} (${meta.name ?? 'custom constraint'})`);
  }
  for (const meta of storage.getTargetValidationMetadatas(schema, '', true, false)) {
    const nested = defaultMetadataStorage.findTypeMetadata(schema, meta.propertyName)?.typeFunction() as RecordSchema | undefined;
    if (nested) found.push(...asyncConstraints(nested, `${prefix}${meta.propertyName}.`, seen));
  }
  return [...new Set(found)];
}
