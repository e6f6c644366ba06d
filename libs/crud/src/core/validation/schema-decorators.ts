import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { isPlainObject } from '../query/field-path';
import { UNIQUE_IDS_CONSTRAINT } from './validation-messages';

/**
 * A list whose items are merged by `id` must not hold one id twice. The message carries the
 * index of the first repeat so the error reads `actions.3.id: duplicate id`.
 */
export function UniqueIds(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: UNIQUE_IDS_CONSTRAINT,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => firstRepeatedId(value) < 0,
        defaultMessage: (args?: ValidationArguments) => String(firstRepeatedId(args?.value)),
      },
    });
}

function firstRepeatedId(list: unknown): number {
  if (!Array.isArray(list)) return -1;
  const seen = new Set<unknown>();
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    if (!isPlainObject(item) || item.id === undefined) continue;
    if (seen.has(item.id)) return index;
    seen.add(item.id);
  }
  return -1;
}

/** The original accepts `args` and resource `path` as one string or a list of strings. */
export function IsStringOrStringList(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStringOrStringList',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be a string or a list of strings', ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')),
      },
    });
}

/**
 * One object or a list of them (the original's `operations` took both forms over its life).
 * Pair it with `@ValidateNested()` and `@Type(...)`: class-validator checks a single object and
 * each element of a list alike, so problems read `operations.actions.0.id` or `operations.0.actions.0.id`.
 */
export function IsObjectOrList(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isObjectOrList',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an object or a list of objects', ...options },
      validator: {
        validate: (value: unknown) => isPlainObject(value) || (Array.isArray(value) && value.every((item) => isPlainObject(item))),
      },
    });
}
