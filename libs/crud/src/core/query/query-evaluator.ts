import { isPlainObject, valuesAtPath } from './field-path';
import { jsonEquals } from './json-equality';
import { PatternMatcher, regExpMatcher, wildcardMatcher } from './pattern-matcher';
import { ENDLESS_SLICE, SliceClock } from './query-budget';
import { CompareOperator, Condition, JsonObject, JsonValue } from './query.types';
import { scalarText } from './scalar-text';

type Test = (record: JsonObject) => boolean;
/** A test that may pause (yield) between costly steps once the clock says its slice is spent. */
type SlicedTest = (record: JsonObject, clock: SliceClock) => Generator<void, boolean, void>;
type Compiled = { sliced: false; test: Test } | { sliced: true; test: SlicedTest };

/**
 * The reference meaning of a where clause, evaluated on one record in memory. The stores
 * compile what SQL can express; this evaluates the rest (regular expressions, whole-object
 * equality, paths a family does not index) on the rows SQL let through, and the tests pin
 * both to the same answers.
 *
 * The clause is compiled once into closures. Parts without patterns run straight through
 * (`in` looks values up in sets, not lists). Pattern leaves are the costly part — up to 100
 * of them, each a linear but not free RE2 match over a value of any length — so `evaluate`
 * can pause between two matches, and a store lets other requests in there.
 */
export class QueryEvaluator {
  private readonly root: Compiled;

  constructor(where: Condition) {
    this.root = compile(where);
  }

  matches(record: JsonObject): boolean {
    if (!this.root.sliced) return this.root.test(record);
    const run = this.root.test(record, ENDLESS_SLICE);
    let step = run.next();
    while (!step.done) step = run.next();
    return step.value;
  }

  /** The `reg_exp` patterns of a clause, each once. */
  static regExpPatterns(where: Condition): string[] {
    const found = new Set<string>();
    const visit = (condition: Condition): void => {
      if (condition.kind === 'pattern' && condition.op === 'reg_exp') found.add(condition.pattern);
      else if (condition.kind === 'and' || condition.kind === 'or') condition.clauses.forEach(visit);
      else if (condition.kind === 'not') visit(condition.clause);
    };
    visit(where);
    return [...found];
  }

  /** Like `matches`, pausing (yielding) whenever `clock` says the current slice is spent. */
  *evaluate(record: JsonObject, clock: SliceClock): Generator<void, boolean, void> {
    if (!this.root.sliced) return this.root.test(record);
    return yield* this.root.test(record, clock);
  }
}

function compile(condition: Condition): Compiled {
  switch (condition.kind) {
    case 'and':
    case 'or':
      return compileJunction(condition.kind, condition.clauses.map(compile));
    case 'not': {
      const inner = compile(condition.clause);
      if (!inner.sliced) return plain((record) => !inner.test(record));
      return sliced(function* (record, clock) {
        return !(yield* inner.test(record, clock));
      });
    }
    case 'exists': {
      const { path } = condition;
      return plain((record) => valuesAtPath(record, path).some((value) => value !== null && !Array.isArray(value)));
    }
    case 'in': {
      const { path } = condition;
      const expected = new ExprSet(condition.values);
      return plain((record) => valuesAtPath(record, path).some((value) => expected.has(value)));
    }
    case 'compare': {
      const { op, path, value: expected } = condition;
      return plain((record) => valuesAtPath(record, path).some((value) => compare(op, value, expected)));
    }
    case 'pattern': {
      const { path, op, pattern } = condition;
      // Compiled at first use, inside a slice: a query's patterns may take most of a second.
      let matcher: PatternMatcher | undefined;
      return sliced(function* (record, clock) {
        matcher ??= op === 'reg_exp' ? regExpMatcher(pattern) : wildcardMatcher(pattern);
        for (const value of valuesAtPath(record, path)) {
          const text = scalarText(value);
          if (text === undefined) continue;
          if (matcher(text)) return true;
          if (clock.sliceSpent) yield;
        }
        return false;
      });
    }
  }
}

function compileJunction(kind: 'and' | 'or', parts: Compiled[]): Compiled {
  // `and` stops at the first false part, `or` at the first true one.
  const decisive = kind === 'or';
  if (parts.every((part) => !part.sliced)) {
    const tests = parts.map((part) => part.test);
    return plain((record) => {
      for (const test of tests) if (test(record) === decisive) return decisive;
      return !decisive;
    });
  }
  return sliced(function* (record, clock) {
    for (const part of parts) {
      const result = part.sliced ? yield* part.test(record, clock) : part.test(record);
      if (result === decisive) return decisive;
    }
    return !decisive;
  });
}

const plain = (test: Test): Compiled => ({ sliced: false, test });
const sliced = (test: SlicedTest): Compiled => ({ sliced: true, test });

/**
 * The values of an `in`, for lookups by `equalsExpr`'s rule: a value matches an equal JSON
 * value, and a number or boolean also matches a string holding its JSON text. Up to 1,000
 * values per leaf and 100 leaves over every value of every candidate: sets, not scans.
 */
class ExprSet {
  private readonly texts = new Set<string>();
  private readonly numbers = new Set<number>();
  private readonly booleans = new Set<boolean>();
  private readonly structured: JsonValue[] = [];
  private readonly hasNull: boolean = false;

  constructor(values: readonly JsonValue[]) {
    for (const value of values) {
      if (typeof value === 'string') this.texts.add(value);
      else if (typeof value === 'number') this.numbers.add(value);
      else if (typeof value === 'boolean') this.booleans.add(value);
      else if (value === null) this.hasNull = true;
      else this.structured.push(value);
    }
  }

  has(value: JsonValue): boolean {
    switch (typeof value) {
      case 'string':
        return this.texts.has(value);
      case 'number':
        return this.numbers.has(value) || (this.texts.size > 0 && this.texts.has(JSON.stringify(value)));
      case 'boolean':
        return this.booleans.has(value) || this.texts.has(String(value));
      default:
        if (value === null) return this.hasNull;
        return (Array.isArray(value) || isPlainObject(value)) && this.structured.some((expected) => jsonEquals(value, expected));
    }
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
