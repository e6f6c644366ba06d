import { ValidationError } from 'class-validator';

export type ValidationProblems = Record<string, string>;

/** Constraint names whose contract text differs from class-validator's default sentence. */
const CONTRACT_TEXTS: Record<string, (message: string) => string> = {
  isDefined: () => 'required',
  isString: () => 'must be a string',
  isBoolean: () => 'must be a boolean',
  isArray: () => 'must be a list',
  isObject: () => 'must be an object',
  nestedValidation: () => 'must be an object',
  isIn: (message) => `must be one of: ${message.slice(message.indexOf(':') + 2)}`,
  isEnum: (message) => `must be one of: ${message.slice(message.indexOf(':') + 2)}`,
  isInt: () => 'must be an integer',
  isNumber: () => 'must be a number',
  isIso8601: () => 'must be an ISO-8601 date-time',
  isDateString: () => 'must be an ISO-8601 date-time',
};

export const UNIQUE_IDS_CONSTRAINT = 'uniqueIds';

/** The refusal of a `$` key where a record or a patch may not hold one (they are kept for merge directives). */
export const RESERVED_KEY_PROBLEM = 'keys starting with $ are reserved';

/**
 * Flattens class-validator's error tree into the contract's 406 message: dotted path to one
 * short text, e.g. `{"parameters.0.type": "required"}`. `required` wins over other problems of
 * the same field, since a missing value fails every other check too.
 */
export function toValidationProblems(errors: readonly ValidationError[], prefix = ''): ValidationProblems {
  const problems: ValidationProblems = {};
  for (const error of errors) collect(error, prefix, problems);
  return problems;
}

function collect(error: ValidationError, prefix: string, problems: ValidationProblems): void {
  const path = prefix + error.property;
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (names.length > 0) {
    const name = names.includes('isDefined') ? 'isDefined' : names[0];
    if (name === UNIQUE_IDS_CONSTRAINT) {
      problems[`${path}.${constraints[name]}.id`] = 'duplicate id';
    } else {
      problems[path] = textFor(name, constraints[name], error.property);
    }
  }
  for (const child of error.children ?? []) collect(child, `${path}.`, problems);
}

/** A check on each item of a list (`each: true`) says so: `each value must be a string`. */
function textFor(constraint: string, message: string, property: string): string {
  const eachPrefix = `each value in ${property} `;
  const each = message.startsWith(eachPrefix);
  const contractText = CONTRACT_TEXTS[constraint];
  const text = contractText
    ? contractText(message)
    : each
      ? message.slice(eachPrefix.length)
      : message.startsWith(`${property} `)
        ? message.slice(property.length + 1)
        : message;
  return each ? `each value ${text}` : text;
}
