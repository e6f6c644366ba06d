import { registerDecorator, ValidationOptions } from 'class-validator';
import { isPlainObject } from '../query/field-path';

/**
 * A list of objects that must not repeat a key other than `id` (eBPF metrics and their labels
 * are unique by `name`). Such a list is not merged by that key, only checked.
 */
export function UniqueBy(key: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'uniqueBy',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [key],
      options: { message: `duplicate ${key}`, ...options },
      validator: {
        validate: (value: unknown) => {
          if (!Array.isArray(value)) return true;
          const seen = new Set<unknown>();
          for (const item of value) {
            if (!isPlainObject(item) || item[key] === undefined) continue;
            if (seen.has(item[key])) return false;
            seen.add(item[key]);
          }
          return true;
        },
      },
    });
}
