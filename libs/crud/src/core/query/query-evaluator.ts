import { valuesAtPath } from './field-path';
import { jsonEquals } from './json-equality';
import { PatternMatcher, regExpMatcher, wildcardMatcher } from './pattern-matcher';
import { CompareOperator, Condition, JsonObject, JsonValue } from './query.types';
import { scalarText } from './scalar-text';

/**
 * The reference meaning of a where clause, evaluated on one record in memory. The stores
 * compile what SQL can express; this evaluates the rest (regular expressions, whole-object
 * equality) on the rows SQL let through, and the unit tests pin both to the same answers.
 */
export class QueryEvaluator {
  private readonly matchers = new Map<Condition, PatternMatcher>();

  constructor(private readonly where: Condition) {}

  matches(record: JsonObject): boolean {
    return this.evaluate(this.where, record);
  }

  private evaluate(condition: Condition, record: JsonObject): boolean {
    switch (condition.kind) {
      case 'and':
        return condition.clauses.every((clause) => this.evaluate(clause, record));
      case 'or':
        return condition.clauses.some((clause) => this.evaluate(clause, record));
      case 'not':
        return !this.evaluate(condition.clause, record);
      case 'exists':
        return valuesAtPath(record, condition.path).some((value) => value !== null && !Array.isArray(value));
      case 'in':
        return valuesAtPath(record, condition.path).some((value) =>
          condition.values.some((expected) => equalsExpr(value, expected)),
        );
      case 'compare':
        return valuesAtPath(record, condition.path).some((value) => compare(condition.op, value, condition.value));
      case 'pattern': {
        const matcher = this.matcherFor(condition);
        return valuesAtPath(record, condition.path).some((value) => {
          const text = scalarText(value);
          return text !== undefined && matcher(text);
        });
      }
    }
  }

  private matcherFor(condition: Extract<Condition, { kind: 'pattern' }>): PatternMatcher {
    let matcher = this.matchers.get(condition);
    if (!matcher) {
      matcher = condition.op === 'reg_exp' ? regExpMatcher(condition.pattern) : wildcardMatcher(condition.pattern);
      this.matchers.set(condition, matcher);
    }
    return matcher;
  }
}

/** `equals`: exact on JSON values, and a string expr also matches a scalar whose JSON text it is. */
export function equalsExpr(value: JsonValue, expected: JsonValue): boolean {
  if (jsonEquals(value, expected)) return true;
  return typeof expected === 'string' && typeof value !== 'string' && scalarText(value) === expected;
}

function compare(op: CompareOperator, value: JsonValue, expected: JsonValue): boolean {
  if (op === 'equals') return equalsExpr(value, expected);
  let order: number;
  if (typeof value === 'number' && typeof expected === 'number') {
    order = value - expected;
  } else {
    const text = scalarText(value);
    const expectedText = scalarText(expected);
    if (text === undefined || expectedText === undefined) return false;
    order = compareCodePoints(text, expectedText);
  }
  switch (op) {
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
  }
}

/**
 * Text order by Unicode code point, which is the byte order of UTF-8 and so what the SQL stores
 * compare by. JavaScript's `<` compares UTF-16 units, which puts astral characters (surrogates,
 * D800-DFFF) before U+E000-U+FFFF; the standard fix-up below moves them after.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
