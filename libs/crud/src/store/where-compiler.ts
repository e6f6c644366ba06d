import { Condition, FieldPath, JsonValue } from '../core/query/query.types';
import { beyondPrefix, literalPrefix, RequiredText, requiredTexts } from '../core/query/pattern-matcher';
import { SqlDialect, SqlFragment, textStartingWith } from './sql-dialect';
import { ValueIndex } from './value-index';

export type { SqlFragment } from './sql-dialect';

/**
 * Which records of a family a where clause lets through, as SQL can tell from the value index:
 * `values` are the records with a value row at `path` that passes any condition of `anyOf` (on
 * the row `v`), `ids` those whose id passes `predicate` (on `r.id`), `pattern` those with a
 * value at `path` among `candidates` whose text matches a `reg_exp` pattern, which only the plan
 * can decide (`seq-tree-plan.ts`: the path's distinct texts go through the pattern in a worker).
 * SQLite runs every tree a leaf at a time, so that no single statement of a query holds the
 * event loop for long; PostgreSQL runs some as one statement (`whereSql`; see RecordSelection).
 */
export type SeqTree =
  | { kind: 'all' }
  | { kind: 'none' }
  /**
   * `bound`: the leaf is one bound of a range (`compileRange`) on a text or a number, its
   * conditions in the same order for every bound of that type, so that two bounds on a path
   * that holds one value per record may be one range (`mergedRange`, seq-tree-plan).
   * `oneValue`: the leaf is an equality on one text, number or boolean (one condition), whose
   * index entries for the path come in arrival order (`RecordSelection.equalityRows`).
   */
  | { kind: 'values'; path: string; anyOf: SqlFragment[]; bound?: 'text' | 'number'; oneValue?: true }
  | { kind: 'pattern'; path: string; pattern: string; candidates: SqlFragment }
  | { kind: 'ids'; predicate: SqlFragment }
  | { kind: 'and' | 'or'; parts: SeqTree[] }
  | { kind: 'not'; part: SeqTree };

/** A tree SQL answers with one statement of sequence numbers (`leafSeqs`). */
export type LeafTree = Extract<SeqTree, { kind: 'values' | 'ids' }>;

export function isLeaf(tree: SeqTree): tree is LeafTree {
  return tree.kind === 'values' || tree.kind === 'ids';
}

/**
 * `exact` false means the tree is a superset (SQL could not express e.g. a regular expression)
 * and the records it lets through must still pass the in-memory evaluator. Every path and value
 * is a bound parameter.
 */
export interface CompiledTree {
  tree: SeqTree;
  exact: boolean;
}

export interface CompiledWhere extends SqlFragment {
  exact: boolean;
}

const ALL: SeqTree = { kind: 'all' };
const MATCH_ALL: CompiledTree = { tree: ALL, exact: false };
const MATCH_NONE = (): CompiledTree => ({ tree: { kind: 'none' }, exact: true });

export function compileWhereTree(condition: Condition, index: ValueIndex, dialect: SqlDialect): CompiledTree {
  return new WhereCompiler(index, dialect).compile(condition);
}

/** The where clause as one SQL condition on `r` (an `inventory_record` row of `family`). */
export function compileWhere(condition: Condition, family: string, index: ValueIndex, dialect: SqlDialect): CompiledWhere {
  const { tree, exact } = compileWhereTree(condition, index, dialect);
  return { ...whereSql(tree, family, dialect), exact };
}

export function whereSql(tree: SeqTree, family: string, dialect: SqlDialect): SqlFragment {
  switch (tree.kind) {
    case 'all':
      return { sql: '1=1', params: [] };
    case 'none':
      return { sql: '1=0', params: [] };
    case 'values': {
      const seqs = leafSeqs(tree, family, dialect);
      return { sql: `r.seq IN (${seqs.sql})`, params: seqs.params };
    }
    case 'ids':
      return tree.predicate;
    case 'pattern':
      // The plan decides a pattern before any statement uses this (RecordSelection): a superset.
      return { sql: `r.seq IN (${dialect.valueSeqs(tree.candidates.sql)})`, params: [family, tree.path, ...tree.candidates.params] };
    case 'and':
    case 'or':
      return joined(
        tree.parts.map((part) => whereSql(part, family, dialect)),
        tree.kind === 'and' ? ' AND ' : ' OR ',
      );
    case 'not': {
      const inner = whereSql(tree.part, family, dialect);
      return { sql: `NOT ${inner.sql}`, params: inner.params };
    }
  }
}

/**
 * `SELECT … seq` of the records of `family` a leaf lets through. A value leaf's conditions are one
 * SELECT each, under UNION ALL (a record may come twice): each then uses the index of its own
 * column, where one OR of them did not: SQLite gave an `in` of a text and a number one index on
 * the path alone (100k events: 170 ms for 111 matches), PostgreSQL a numeric range a bitmap of
 * two scans that read every value of the path (37 ms for 97 matches).
 */
export function leafSeqs(leaf: LeafTree, family: string, dialect: SqlDialect): SqlFragment {
  if (leaf.kind === 'ids') {
    return {
      sql: `SELECT r.seq FROM inventory_record r WHERE r.family = ? AND ${leaf.predicate.sql}`,
      params: [family, ...leaf.predicate.params],
    };
  }
  if (leaf.anyOf.length === 1) {
    // Every equality and range: one condition, without the arrays of the general case (it ran
    // twice in each of W3's reads).
    const [condition] = leaf.anyOf;
    return { sql: dialect.valueSeqs(condition.sql), params: [family, leaf.path, ...condition.params] };
  }
  return {
    sql: leaf.anyOf.map((condition) => dialect.valueSeqs(condition.sql)).join(' UNION ALL '),
    params: leaf.anyOf.flatMap((condition) => [family, leaf.path, ...condition.params]),
  };
}

class WhereCompiler {
  constructor(
    private readonly index: ValueIndex,
    private readonly dialect: SqlDialect,
  ) {}

  compile(condition: Condition): CompiledTree {
    switch (condition.kind) {
      case 'and':
      case 'or': {
        const parts = condition.clauses.map((clause) => this.compile(clause));
        // A part that restricts nothing (e.g. on a path the family does not index) makes an `or`
        // restrict nothing, and adds nothing to an `and`.
        const restricting = parts.filter((part) => part !== MATCH_ALL);
        if (restricting.length === 0 || (condition.kind === 'or' && restricting.length < parts.length)) return MATCH_ALL;
        return {
          tree: { kind: condition.kind, parts: restricting.map((part) => part.tree) },
          exact: parts.every((part) => part.exact),
        };
      }
      case 'not': {
        const inner = this.compile(condition.clause);
        // NOT of a superset is not a superset: leave the whole negation to the evaluator.
        if (!inner.exact) return MATCH_ALL;
        return { tree: { kind: 'not', part: inner.tree }, exact: true };
      }
      case 'exists':
        return isRecordId(condition.path)
          ? { tree: ALL, exact: true }
          : this.valueMatch(condition.path, [{ sql: "v.kind <> 'z'", params: [] }]);
      case 'in':
        return this.compileIn(condition.path, condition.values);
      case 'compare':
        return condition.op === 'equals'
          ? this.compileIn(condition.path, [condition.value])
          : this.compileRange(condition.op, condition.path, condition.value as string | number);
      case 'pattern': {
        if (condition.op === 'reg_exp') return this.pattern(condition.path, condition.pattern);
        const column = isRecordId(condition.path) ? 'r.id' : 'v.text';
        const match = this.dialect.wildcard(column, condition.pattern);
        return isRecordId(condition.path) ? idMatch(match) : this.valueMatch(condition.path, [match]);
      }
    }
  }

  /** `equals` and `in`: a string also matches a number or boolean whose JSON text it is. */
  private compileIn(path: FieldPath, values: readonly JsonValue[]): CompiledTree {
    if (isRecordId(path)) {
      // Ids hold no control characters (docs/records.md), so a value is compared in the index's
      // text form, which PostgreSQL can bind even when it holds NUL; for ids the two agree.
      const ids = new Set(
        values.filter((value): value is string => typeof value === 'string').map((value) => this.dialect.indexText(value)),
      );
      if (ids.size === 0) return MATCH_NONE();
      return idMatch(this.dialect.oneOf('r.id', [...ids]));
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
      // As a text of the text index: on PostgreSQL, `v.text` alone is not its key (`left(text, 200)` is).
      const text = this.dialect.textIn([...booleans]);
      options.push({ sql: `(v.kind = 'b' AND ${text.sql})`, params: text.params });
    }
    if (matchesNull) options.push({ sql: "v.kind = 'z'", params: [] });
    if (options.length === 0) return MATCH_NONE();
    const oneValue = !matchesNull && texts.size + numbers.size + booleans.size === 1;
    return this.valueMatch(path, options, undefined, oneValue);
  }

  /** Numbers compare numerically with numbers; everything else compares as text. */
  private compileRange(op: 'lt' | 'lte' | 'gt' | 'gte', path: FieldPath, value: string | number): CompiledTree {
    const operator = ({ lt: '<', lte: '<=', gt: '>', gte: '>=' } as const)[op];
    const indexed = this.dialect.indexText(typeof value === 'string' ? value : JSON.stringify(value));
    if (isRecordId(path)) return idMatch({ sql: `r.id ${operator} ?`, params: [indexed] });
    const text = this.dialect.textCompared(operator, indexed);
    if (typeof value === 'string') return this.valueMatch(path, [text], 'text');
    return this.valueMatch(
      path,
      [
        { sql: `v.num ${operator} ?`, params: [value] },
        { sql: `v.kind IN ('s', 'b') AND ${text.sql}`, params: text.params },
      ],
      'number',
    );
  }

  /** Candidates for what SQL cannot decide: records that have some value at the path. */
  private approximate(path: FieldPath): CompiledTree {
    if (isRecordId(path)) return MATCH_ALL;
    return { ...this.valueMatch(path, [{ sql: "v.kind <> 'z'", params: [] }]), exact: false };
  }

  /**
   * A `reg_exp` on an indexed path: exact, decided by the plan on the path's distinct texts (of
   * numbers and booleans too: the index holds their JSON text, which the evaluator matches), so
   * that a pattern is matched once per distinct value instead of once per record (100k events
   * through the residual worker: 430-640 ms). A literal prefix bounds the texts read; the texts
   * every match holds (`requiredTexts`) leave only the distinct texts that hold them for the
   * pattern, checked by the database as it reads the index (`.*-00012[0-9]` on the hosts of 100k
   * events: 134 ms, nearly all of it spent passing 95k texts to the worker and through RE2).
   */
  private pattern(path: FieldPath, pattern: string): CompiledTree {
    if (isRecordId(path) || !this.index.covers(path)) return MATCH_ALL;
    const prefix = literalPrefix(pattern);
    // Numbers, texts and booleans hold a text (null and objects do not): the text index alone answers.
    const range = prefix === '' ? { sql: 'v.text IS NOT NULL', params: [] } : textStartingWith(this.dialect, prefix);
    const required = beyondPrefix(requiredTexts(pattern), prefix);
    const candidates = required === undefined ? range : joined([range, this.textHolding(required)], ' AND ');
    return { tree: { kind: 'pattern', path: path.join('.'), pattern, candidates }, exact: true };
  }

  private textHolding(required: RequiredText): SqlFragment {
    if (typeof required === 'string') return this.dialect.textContains(required);
    if ('all' in required)
      return joined(
        required.all.map((part) => this.textHolding(part)),
        ' AND ',
      );
    return joined(
      required.any.map((part) => this.textHolding(part)),
      ' OR ',
    );
  }

  /** Records with a value at `path` that passes any of `anyOf`, each a condition one index can answer. */
  private valueMatch(path: FieldPath, anyOf: SqlFragment[], bound?: 'text' | 'number', oneValue = false): CompiledTree {
    // A path the family does not index (or an over-long one) has no rows, or, in a database
    // written under an earlier declaration, rows for some records only: SQL must not decide on
    // it at all, so it restricts nothing and the evaluator decides on every record. `not` of
    // such a part is MATCH_ALL as well (see above), never a negated superset.
    if (!this.index.covers(path)) return MATCH_ALL;
    return { tree: { kind: 'values', path: path.join('.'), anyOf, ...(bound && { bound }), ...(oneValue && { oneValue }) }, exact: true };
  }
}

function idMatch(predicate: SqlFragment): CompiledTree {
  return { tree: { kind: 'ids', predicate }, exact: true };
}

/** `parts` under one operator, in parentheses. */
function joined(parts: SqlFragment[], operator: ' AND ' | ' OR '): SqlFragment {
  return { sql: `(${parts.map((part) => part.sql).join(operator)})`, params: parts.flatMap((part) => part.params) };
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
