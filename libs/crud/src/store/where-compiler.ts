import { Condition, FieldPath, JsonValue } from '../core/query/query.types';
import { SqlDialect, SqlFragment } from './sql-dialect';
import { ValueIndex } from './value-index';

export type { SqlFragment } from './sql-dialect';

/**
 * A where clause as SQL over the value index. `exact` false means the SQL is a superset (it
 * could not express e.g. a regular expression) and the rows it lets through must still pass
 * the in-memory evaluator. Every path and value is a bound parameter.
 */
export interface CompiledWhere extends SqlFragment {
  exact: boolean;
}

const MATCH_ALL: CompiledWhere = { sql: '1=1', params: [], exact: false };
const MATCH_NONE = (): CompiledWhere => ({ sql: '1=0', params: [], exact: true });

export function compileWhere(condition: Condition, family: string, index: ValueIndex, dialect: SqlDialect): CompiledWhere {
  return new WhereCompiler(family, index, dialect).compile(condition);
}

class WhereCompiler {
  constructor(
    private readonly family: string,
    private readonly index: ValueIndex,
    private readonly dialect: SqlDialect,
  ) {}

  compile(condition: Condition): CompiledWhere {
    switch (condition.kind) {
      case 'and':
      case 'or': {
        const parts = condition.clauses.map((clause) => this.compile(clause));
        // A part that restricts nothing (e.g. on a path the family does not index) makes an `or`
        // restrict nothing, and adds nothing to an `and`.
        const restricting = parts.filter((part) => part !== MATCH_ALL);
        if (restricting.length === 0 || (condition.kind === 'or' && restricting.length < parts.length)) return MATCH_ALL;
        const joiner = condition.kind === 'and' ? ' AND ' : ' OR ';
        return {
          sql: `(${restricting.map((part) => part.sql).join(joiner)})`,
          params: restricting.flatMap((part) => part.params),
          exact: parts.every((part) => part.exact),
        };
      }
      case 'not': {
        const inner = this.compile(condition.clause);
        // NOT of a superset is not a superset: leave the whole negation to the evaluator.
        if (!inner.exact) return MATCH_ALL;
        return { sql: `NOT ${inner.sql}`, params: inner.params, exact: true };
      }
      case 'exists':
        return isRecordId(condition.path)
          ? { sql: '1=1', params: [], exact: true }
          : this.valueMatch(condition.path, { sql: "v.kind <> 'z'", params: [] });
      case 'in':
        return this.compileIn(condition.path, condition.values);
      case 'compare':
        return condition.op === 'equals'
          ? this.compileIn(condition.path, [condition.value])
          : this.compileRange(condition.op, condition.path, condition.value as string | number);
      case 'pattern': {
        if (condition.op === 'reg_exp') return this.approximate(condition.path);
        const column = isRecordId(condition.path) ? 'r.id' : 'v.text';
        const { sql, param } = this.dialect.wildcard(column, condition.pattern);
        return isRecordId(condition.path)
          ? { sql, params: [param], exact: true }
          : this.valueMatch(condition.path, { sql, params: [param] });
      }
    }
  }

  /** `equals` and `in`: a string also matches a number or boolean whose JSON text it is. */
  private compileIn(path: FieldPath, values: readonly JsonValue[]): CompiledWhere {
    if (isRecordId(path)) {
      const ids = new Set(values.filter((value): value is string => typeof value === 'string'));
      if (ids.size === 0) return MATCH_NONE();
      return { ...this.dialect.oneOf('r.id', [...ids]), exact: true };
    }
    const texts = new Set<string>();
    const numbers = new Set<number>();
    const booleans = new Set<string>();
    let matchesNull = false;
    let exact = true;
    for (const value of values) {
      if (typeof value === 'string') texts.add(value);
      else if (typeof value === 'number') numbers.add(value);
      else if (typeof value === 'boolean') booleans.add(String(value));
      else if (value === null) matchesNull = true;
      else exact = false;
    }
    if (!exact) return values.some(leavesNoTrace) ? MATCH_ALL : this.approximate(path);
    const options: SqlFragment[] = [];
    if (texts.size > 0) options.push(this.dialect.textIn([...texts]));
    if (numbers.size > 0) options.push(this.dialect.oneOf('v.num', [...numbers]));
    if (booleans.size > 0) {
      const text = this.dialect.oneOf('v.text', [...booleans]);
      options.push({ sql: `(v.kind = 'b' AND ${text.sql})`, params: text.params });
    }
    if (matchesNull) options.push({ sql: "v.kind = 'z'", params: [] });
    if (options.length === 0) return MATCH_NONE();
    return this.valueMatch(path, {
      sql: options.length === 1 ? options[0].sql : `(${options.map((option) => option.sql).join(' OR ')})`,
      params: options.flatMap((option) => option.params),
    });
  }

  /** Numbers compare numerically with numbers; everything else compares as text. */
  private compileRange(op: 'lt' | 'lte' | 'gt' | 'gte', path: FieldPath, value: string | number): CompiledWhere {
    const operator = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[op];
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (isRecordId(path)) return { sql: `r.id ${operator} ?`, params: [text], exact: true };
    const indexed = this.dialect.indexText(text);
    if (typeof value === 'string') return this.valueMatch(path, { sql: `v.text ${operator} ?`, params: [indexed] });
    return this.valueMatch(path, {
      sql: `(v.num ${operator} ? OR (v.kind IN ('s', 'b') AND v.text ${operator} ?))`,
      params: [value, indexed],
    });
  }

  /** Candidates for what SQL cannot decide: records that have some value at the path. */
  private approximate(path: FieldPath): CompiledWhere {
    if (isRecordId(path)) return MATCH_ALL;
    return { ...this.valueMatch(path, { sql: "v.kind <> 'z'", params: [] }), exact: false };
  }

  private valueMatch(path: FieldPath, predicate: SqlFragment): CompiledWhere {
    // A path the family does not index (or an over-long one) has no rows, or, in a database
    // written under an earlier declaration, rows for some records only: SQL must not decide on
    // it at all, so it restricts nothing and the evaluator decides on every record. `not` of
    // such a part is MATCH_ALL as well (see above), never a negated superset.
    if (!this.index.covers(path)) return MATCH_ALL;
    return {
      sql: `r.seq IN (SELECT v.seq FROM inventory_value v WHERE v.family = ? AND v.path = ? AND ${predicate.sql})`,
      params: [this.family, path.join('.'), ...predicate.params],
      exact: true,
    };
  }
}

export function isRecordId(path: FieldPath): boolean {
  return path.length === 1 && path[0] === 'id';
}

/**
 * A list holding no object and no non-null scalar (`[]`, `[null]`, `[[]]`) puts no usable row in
 * the value index, so a record equal to it cannot be found through the index: scan instead.
 */
function leavesNoTrace(value: JsonValue): boolean {
  if (!Array.isArray(value)) return false;
  return value.every((element) => element === null || leavesNoTrace(element));
}
