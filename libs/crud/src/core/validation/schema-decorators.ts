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
    const item = list[index];
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
