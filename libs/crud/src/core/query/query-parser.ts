import { largestRepeatCount } from './counted-repetition';
import { compilePattern } from './pattern-matcher';
import { isPlainObject, parseFieldPath } from './field-path';
import { QueryError } from './query-error';
import { QUERY_LIMITS } from './query-limits';
import { longerThan } from '../text/code-points';
import { CompareOperator, Condition, FieldPath, JsonValue, OrderTerm, RecordQuery } from './query.types';

export interface QueryParseOptions {
  /** `select` belongs to reads; a delete that names one is a client mistake worth telling. */
  allowSelect: boolean;
  /**
   * Whether `reg_exp` patterns are compiled here to check their syntax (by default). A pattern
   * with counted repetitions takes milliseconds to compile, 100 of them most of a second: the
   * service leaves it to the store's plan, which compiles them between other requests (and
   * answers the same 400 for a bad one, before anything is read or deleted).
   */
  compilePatterns?: boolean;
}

const COMPARE_OPERATORS: readonly CompareOperator[] = ['equals', 'lt', 'lte', 'gt', 'gte'];
const QUERY_KEYS = new Set(['select', 'where', 'order', 'limit']);

/** Turns a query body into a validated RecordQuery, or throws QueryError naming what is wrong. */
export function parseRecordQuery(body: unknown, options: QueryParseOptions): RecordQuery {
  if (body === undefined || body === null) return { order: [], offset: 0 };
  if (!isPlainObject(body)) throw new QueryError('query must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!QUERY_KEYS.has(key)) throw new QueryError(`unknown query field "${key}"`);
  }
  const query: RecordQuery = { order: [], offset: 0 };
  if (body.select !== undefined) {
    if (!options.allowSelect) throw new QueryError('select is only allowed when reading');
    query.select = parseSelect(body.select);
  }
  if (body.where !== undefined) query.where = new ClauseParser(options.compilePatterns ?? true).parse(body.where);
  if (body.order !== undefined) query.order = parseOrder(body.order);
  if (body.limit !== undefined) Object.assign(query, parseLimit(body.limit));
  return query;
}

function parseSelect(raw: JsonValue): FieldPath[] {
  const names = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(names) || names.length === 0) throw new QueryError('select must be a field name or a non-empty list of them');
  if (names.length > QUERY_LIMITS.selectPaths) throw new QueryError(`select names more than ${QUERY_LIMITS.selectPaths} paths`);
  const seen = new Set<string>();
  return names.map((name, index) => {
    const path = parseFieldPath(name, `select[${index}]`);
    const key = path.join('.');
    if (seen.has(key)) throw new QueryError(`select names "${key}" twice`);
    seen.add(key);
    return path;
  });
}

function parseOrder(raw: JsonValue): OrderTerm[] {
  const terms = Array.isArray(raw) ? raw : [raw];
  if (terms.length > QUERY_LIMITS.orderTerms) throw new QueryError(`order has more than ${QUERY_LIMITS.orderTerms} terms`);
  return terms.map((term, index) => {
    if (!isPlainObject(term)) throw new QueryError(`order[${index}] must be an object with target and mode`);
    for (const key of Object.keys(term)) {
      if (key !== 'target' && key !== 'mode') throw new QueryError(`order[${index}] has unknown field "${key}"`);
    }
    const mode = term.mode ?? 'asc';
    if (mode !== 'asc' && mode !== 'desc') throw new QueryError(`order[${index}].mode must be asc or desc`);
    return { path: parseFieldPath(term.target, `order[${index}].target`), descending: mode === 'desc' };
  });
}

function parseLimit(raw: JsonValue): Pick<RecordQuery, 'offset' | 'count'> {
  if (!isPlainObject(raw)) throw new QueryError('limit must be an object {"from": N, "to": M}');
  for (const key of Object.keys(raw)) {
    if (key !== 'from' && key !== 'to') throw new QueryError(`limit has unknown field "${key}"`);
  }
  const from = raw.from ?? 0;
  if (!Number.isSafeInteger(from) || (from as number) < 0) throw new QueryError('limit.from must be a non-negative integer');
  if (raw.to === undefined) return { offset: from as number };
  const to = raw.to;
  if (!Number.isSafeInteger(to) || (to as number) < (from as number))
    throw new QueryError('limit.to must be an integer not below limit.from');
  return { offset: from as number, count: (to as number) - (from as number) + 1 };
}

/** Parses CLAUSE trees while counting leaves, depth and `in` values against the caps. */
class ClauseParser {
  private leaves = 0;
  private inValues = 0;

  constructor(private readonly compilePatterns: boolean) {}

  parse(raw: JsonValue, depth = 1, where = 'where'): Condition {
    if (depth > QUERY_LIMITS.depth) throw new QueryError(`${where} is nested deeper than ${QUERY_LIMITS.depth} levels`);
    if (!isPlainObject(raw)) throw new QueryError(`${where} must be an object`);
    const keys = Object.keys(raw);
    if (keys.length === 0) throw new QueryError(`${where} has no condition`);
    const clauses = keys.map((key) => this.parseOperator(key, raw[key], depth, `${where}.${key}`));
    return clauses.length === 1 ? clauses[0] : { kind: 'and', clauses };
  }

  private parseOperator(operator: string, operand: JsonValue, depth: number, where: string): Condition {
    switch (operator) {
      case 'and':
      case 'or':
        return { kind: operator, clauses: this.parseList(operand, depth, where) };
      case 'not':
        return { kind: 'not', clause: this.parse(operand, depth + 1, where) };
      case 'in':
        return this.parseIn(operand, where);
      case 'exists':
        return { kind: 'exists', path: this.leaf(operand, where, ['target']).path };
      case 'reg_exp':
      case 'wildcard':
        return this.parsePattern(operator, operand, where);
      default:
        if ((COMPARE_OPERATORS as readonly string[]).includes(operator)) {
          const { path, expr } = this.leaf(operand, where, ['target', 'expr']);
          if (operator !== 'equals' && typeof expr !== 'string' && typeof expr !== 'number')
            throw new QueryError(`${where}.expr must be a string or a number`);
          return { kind: 'compare', op: operator as CompareOperator, path, value: expr as JsonValue };
        }
        throw new QueryError(`${where}: unknown operator "${operator}"`);
    }
  }

  /** The original accepted `and`/`or` as a list of clauses or as one object of clauses. */
  private parseList(operand: JsonValue, depth: number, where: string): Condition[] {
    if (Array.isArray(operand)) {
      if (operand.length === 0) throw new QueryError(`${where} must not be empty`);
      return operand.map((clause, index) => this.parse(clause, depth + 1, `${where}[${index}]`));
    }
    if (isPlainObject(operand)) {
      const keys = Object.keys(operand);
      if (keys.length === 0) throw new QueryError(`${where} must not be empty`);
      return keys.map((key) => this.parse({ [key]: operand[key] }, depth + 1, where));
    }
    throw new QueryError(`${where} must be a list or an object of conditions`);
  }

  private parseIn(operand: JsonValue, where: string): Condition {
    const { path, expr } = this.leaf(operand, where, ['target', 'expr']);
    if (!Array.isArray(expr)) throw new QueryError(`${where}.expr must be a list`);
    if (expr.length > QUERY_LIMITS.inValues) throw new QueryError(`${where}.expr has more than ${QUERY_LIMITS.inValues} values`);
    this.inValues += expr.length;
    if (this.inValues > QUERY_LIMITS.inValuesTotal)
      throw new QueryError(`where has more than ${QUERY_LIMITS.inValuesTotal} in values in total`);
    return { kind: 'in', path, values: expr };
  }

  private parsePattern(op: 'reg_exp' | 'wildcard', operand: JsonValue, where: string): Condition {
    const { path, expr } = this.leaf(operand, where, ['target', 'expr']);
    if (typeof expr !== 'string') throw new QueryError(`${where}.expr must be a string`);
    if (longerThan(expr, QUERY_LIMITS.patternLength))
      throw new QueryError(`${where}.expr is longer than ${QUERY_LIMITS.patternLength} characters`);
    if (op === 'reg_exp') {
      if (largestRepeatCount(expr) > QUERY_LIMITS.repeatCount)
        throw new QueryError(`${where}.expr has a counted repetition above ${QUERY_LIMITS.repeatCount}`);
      if (this.compilePatterns) checkPattern(expr, where);
    }
    return { kind: 'pattern', op, path, pattern: expr };
  }

  private leaf(operand: JsonValue, where: string, fields: string[]): { path: FieldPath; expr?: JsonValue } {
    if (!isPlainObject(operand)) throw new QueryError(`${where} must be an object with ${fields.join(' and ')}`);
    for (const key of Object.keys(operand)) {
      if (!fields.includes(key)) throw new QueryError(`${where} has unknown field "${key}"`);
    }
    if (fields.includes('expr') && !Object.prototype.hasOwnProperty.call(operand, 'expr'))
      throw new QueryError(`${where}.expr is required`);
    this.leaves += 1;
    if (this.leaves > QUERY_LIMITS.leafConditions) throw new QueryError(`where has more than ${QUERY_LIMITS.leafConditions} conditions`);
    return { path: parseFieldPath(operand.target, `${where}.target`), expr: operand.expr };
  }
}

/** Compiles a `reg_exp` pattern (the compilation is kept for the evaluator), or throws the 400. */
export function checkPattern(pattern: string, where = 'reg_exp'): void {
  try {
    compilePattern(pattern);
  } catch {
    throw new QueryError(`${where}.expr is not a valid regular expression`);
  }
}
