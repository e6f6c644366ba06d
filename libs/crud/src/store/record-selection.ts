import { ENDLESS_SLICE, QueryBudget, SliceClock } from '../core/query/query-budget';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { Condition, JsonObject, OrderTerm } from '../core/query/query.types';
import { filtered, PAUSE, PlanPart, pausing } from './plan-step';
import { SeqSet } from './seq-set';
import { marks, SqlDialect } from './sql-dialect';
import { ValueIndex } from './value-index';
import { compileWhereTree, isLeaf, isRecordId, LeafTree, leafSeqs, SeqTree, SqlFragment, whereSql } from './where-compiler';

/** Which records a read or delete is about: its family, the path `{id}`, and the parsed query. */
export interface SelectionSpec {
  family: string;
  /** The paths the family's value index holds: SQL decides nothing about any other path. */
  valueIndex: ValueIndex;
  id?: string;
  where?: Condition;
  order: readonly OrderTerm[];
  offset: number;
  count?: number;
  /** Time budget and client presence (docs/query-language.md); none in tests of the stores alone. */
  budget?: QueryBudget;
}

export interface StoredRow {
  seq: number;
  id: string;
  doc: string;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;
/**
 * `rowsBySeq`'s text by number of records, built once: the store looks each statement up by its
 * text, and a string made anew is hashed anew at every lookup. At most 1,000 texts (~1.5 MB).
 */
const ROWS_BY_SEQ_SQL: string[] = [];
const JUNCTIONS = new Set<SeqTree['kind']>(['and', 'or']);

/**
 * The SQL for one selection, in the `?` form both stores share. When the where clause has parts
 * SQL cannot decide, `residual` re-checks candidate rows in memory and the window (offset,
 * count) is applied after it instead of in SQL.
 *
 * When `tree` is set the plan first evaluates the where clause a leaf at a time
 * (`evaluateSeqTree`) and then `narrowTo` the records found: statements after that only fetch
 * and order those. SQLite always does. PostgreSQL does for `and` and `or`, and for a read
 * ordered by one value path (whose candidates `topByIndex` must know), and otherwise makes the
 * where clause one condition of every statement: it plans a statement from estimates, and one
 * set of statistics covers every path's values, so it cannot tell a leaf that lets few records
 * through from one that lets most through (a five-second time window: a walk of all 100k
 * records, 170 ms, to find 10), which probing each leaf with a limit does.
 */
export class RecordSelection {
  readonly residual?: QueryEvaluator;
  /** The where clause as JSON, when its residual check runs in a worker (it has `reg_exp` leaves). */
  readonly residualOffThread?: string;
  /** The where clause (and the path id) as SQL can tell it, evaluated a leaf at a time. */
  readonly tree?: SeqTree;
  /** The where clause, when SQL decides it whole as one leaf and there is no path id (both stores). */
  readonly leaf?: LeafTree;
  /** The leaf under the where clause, when SQL decides it whole as `not` of one leaf and there is no path id. */
  readonly notLeaf?: LeafTree;
  readonly clock: SliceClock;
  /** Candidates in arrival order, once narrowed to a known set. */
  candidateList?: readonly number[];
  /**
   * Set once a statement of `equalityRows` without a window found more than a page
   * (`readEqualityWhole`): the plan reads the candidates without asking again.
   */
  equalityOverAPage = false;
  /** Records of the family that are no candidates, once narrowed to a complement. */
  excluded?: ReadonlySet<number>;
  /**
   * Which rows are candidates, for statements that order or window them. Once narrowed to a
   * list, built only when such a statement needs it: a read in arrival order fetches its list by
   * sequence number and never does (W3 on SQLite encoded its ten candidates for nothing).
   */
  private filter: SqlFragment | undefined;
  /** Which rows to page through when scanning candidates in arrival order (`excluded` aside). */
  private paging: SqlFragment;

  constructor(
    readonly spec: SelectionSpec,
    readonly dialect: SqlDialect,
  ) {
    this.clock = spec.budget ?? ENDLESS_SLICE;
    const clauses = ['r.family = ?'];
    const params: unknown[] = [spec.family];
    if (spec.id !== undefined) {
      clauses.push('r.id = ?');
      params.push(spec.id);
    }
    this.paging = { sql: clauses.join(' AND '), params: [...params] };
    if (spec.where) {
      const compiled = compileWhereTree(spec.where, spec.valueIndex, dialect);
      if (!compiled.exact) {
        this.residual = new QueryEvaluator(spec.where);
        if (QueryEvaluator.regExpPatterns(spec.where).length > 0) this.residualOffThread = JSON.stringify(spec.where);
      }
      if (compiled.exact && spec.id === undefined) {
        if (isLeaf(compiled.tree)) this.leaf = compiled.tree;
        else if (compiled.tree.kind === 'not' && isLeaf(compiled.tree.part)) this.notLeaf = compiled.tree.part;
      }
      const where =
        this.leaf?.kind === 'values'
          ? dialect.seqAmong(leafSeqs(this.leaf, spec.family, dialect))
          : whereSql(compiled.tree, spec.family, dialect);
      clauses.push(where.sql);
      params.push(...where.params);
      const byId: SeqTree = { kind: 'ids', predicate: { sql: 'r.id = ?', params: [spec.id] } };
      const withId = spec.id === undefined ? compiled.tree : { kind: 'and' as const, parts: [byId, compiled.tree] };
      // A pattern leaf is decided by the plan alone (`whereSql` writes a superset of it).
      if (dialect.name === 'sqlite' || hasPattern(compiled.tree)) this.tree = withId;
      else if (spec.id === undefined && (JUNCTIONS.has(compiled.tree.kind) || (compiled.exact && orderedByOneValue(spec.order))))
        this.tree = compiled.tree;
    }
    this.filter = { sql: clauses.join(' AND '), params };
    if (!this.tree) this.paging = this.filter;
  }

  /**
   * The first `limit` value rows of an equality on one value, with their records, in arrival
   * order, as one statement (`equalRowsInArrivalOrder`): only where the read asks for no other
   * order. Shareable: concurrent reads of one text go to PostgreSQL together.
   */
  equalityRows(limit: number): SqlFragment | undefined {
    const leaf = this.leaf;
    if (leaf?.kind !== 'values' || !leaf.oneValue || this.spec.order.length > 0) return undefined;
    const [condition] = leaf.anyOf;
    return { ...this.dialect.equalRowsInArrivalOrder(this.spec.family, leaf.path, condition, limit), shareable: true };
  }

  /** Makes every later statement about the records `found` (in the family, with the path id). */
  narrowTo(found: SeqSet): void {
    if (found.negated) {
      this.excluded = found.seqs.size > 0 ? found.seqs : undefined;
      const outside = this.excluded && this.dialect.seqIn([...this.excluded]);
      this.filter = outside
        ? { sql: `${this.paging.sql} AND NOT ${outside.sql}`, params: [...this.paging.params, ...outside.params] }
        : this.paging;
      return;
    }
    this.candidateList = found.sorted();
    this.filter = undefined;
  }

  /** Arrival order with no value filter reads the (family, seq) index in pages, nothing else. */
  get pagesBySeq(): boolean {
    return this.spec.order.length === 0 && !this.spec.where;
  }

  /**
   * SQL orders by the value index only when the index holds every ordered path, and only by as
   * many of them as the dialect sorts in one statement; otherwise the order is computed from
   * the records in memory (see `MemoryOrder`).
   */
  get orderInSql(): boolean {
    const valueTerms = this.spec.order.filter((term) => !isRecordId(term.path));
    return valueTerms.length <= this.dialect.sqlOrderTerms && valueTerms.every((term) => this.spec.valueIndex.covers(term.path));
  }

  /**
   * Whether the order may come from walking a value path's index (`topByIndex`). The walk tells
   * candidates by `candidateList` and `excluded` alone, so every restriction must have gone into
   * them (`tree`): a path id without a where clause did not, and ordered reads of one id had
   * answered the family's first records instead.
   */
  get walksIndexForOrder(): boolean {
    const candidatesKnown = this.tree !== undefined || (this.spec.where === undefined && this.spec.id === undefined);
    return candidatesKnown && this.windowInSql && orderedByOneValue(this.spec.order);
  }

  /** Offset and count go into SQL only when SQL alone decides what matches. */
  get windowInSql(): boolean {
    return !this.residual;
  }

  /** The record of the path id (a read with no query: see `pagesBySeq`). */
  byId(): SqlFragment {
    const { family, id } = this.spec;
    return {
      sql: 'SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.family = ? AND r.id = ?',
      params: [family, id],
      recordKey: id === undefined ? undefined : { family, id },
    };
  }

  /** One page of rows after `afterSeq`, in arrival order (of the family, when narrowed to a complement). */
  pageAfter(afterSeq: number, pageSize: number, skip: number): SqlFragment {
    return {
      sql: `SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE ${this.paging.sql} AND r.seq > ? ORDER BY r.seq LIMIT ? OFFSET ?`,
      params: [...this.paging.params, afterSeq, pageSize, skip],
    };
  }

  /** The sequence number of the record `offset` places into the pages (of a read with no filter). */
  seqAtOffset(offset: number): SqlFragment {
    return {
      sql: `SELECT r.seq FROM inventory_record r WHERE ${this.paging.sql} ORDER BY r.seq LIMIT 1 OFFSET ?`,
      params: [...this.paging.params, offset],
    };
  }

  /** The sequence numbers of every candidate, in query order. */
  candidateSeqs(): SqlFragment {
    return this.inQueryOrder('r.seq', this.windowInSql ? (this.spec.count ?? NO_LIMIT) : undefined);
  }

  /** The first `limit` rows of the window, in query order (only when `windowInSql`). */
  firstRows(limit: number): SqlFragment {
    return { ...this.inQueryOrder('r.seq, r.id, r.doc', limit), shareable: true };
  }

  /** `columns` of the candidates in query order; with a limit, from the window's offset on. */
  private inQueryOrder(columns: string, limit: number | undefined): SqlFragment {
    const filter = (this.filter ??= this.amongCandidates());
    const order = this.orderBy();
    const sql = `SELECT ${columns} FROM inventory_record r WHERE ${filter.sql} ORDER BY ${order.sql}`;
    if (limit === undefined) return { sql, params: [...filter.params, ...order.params] };
    return { sql: `${sql} LIMIT ? OFFSET ?`, params: [...filter.params, ...order.params, limit, this.spec.offset] };
  }

  /** The listed candidates within `paging`, which names the family: PostgreSQL finds records by (family, seq). */
  private amongCandidates(): SqlFragment {
    const among = this.dialect.seqIn(this.candidateList!);
    return { sql: `${this.paging.sql} AND ${among.sql}`, params: [...this.paging.params, ...among.params] };
  }

  /** At most `READ_PAGE_SIZE` records of `family` (the plan's pages). */
  static rowsBySeq(family: string, seqs: readonly number[]): SqlFragment {
    const sql = (ROWS_BY_SEQ_SQL[seqs.length] ??=
      `SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.family = ? AND r.seq IN (${marks(seqs.length)})`);
    return { sql, params: [family, ...seqs] };
  }

  static deleteBySeq(seqs: readonly number[]): SqlFragment {
    return { sql: `DELETE FROM inventory_record WHERE seq IN (${marks(seqs.length)})`, params: [...seqs] };
  }

  /**
   * Ordering by a field uses its smallest (ascending) or largest (descending) value in the
   * value index: numbers first and numerically, then text bytewise, then records without it.
   * Only for paths the index holds (`orderInSql`); `MemoryOrder` is the same rule in memory.
   */
  private orderBy(): SqlFragment {
    const terms: string[] = [];
    const params: unknown[] = [];
    for (const term of this.spec.order) {
      const direction = term.descending ? 'DESC' : 'ASC';
      if (isRecordId(term.path)) {
        terms.push(`r.id ${direction}`);
        continue;
      }
      const pick = term.descending ? 'MAX' : 'MIN';
      const values = this.dialect.valuesOfRecord(this.spec.family, term.path.join('.'));
      for (const column of ['num', 'text']) {
        terms.push(`(SELECT ${pick}(v.${column}) FROM ${values.sql}) ${direction} NULLS LAST`);
        params.push(...values.params);
      }
    }
    terms.push('r.seq ASC');
    return { sql: terms.join(', '), params };
  }
}

/**
 * Applies the in-memory part of a selection to rows arriving in order: the residual check,
 * then the offset and count when SQL could not apply them. Pauses whenever the selection's
 * slice of the event loop is spent.
 */
export class RowWindow {
  private skipped = 0;
  private taken = 0;

  constructor(private readonly selection: RecordSelection) {}

  get full(): boolean {
    const { count } = this.selection.spec;
    return !this.selection.windowInSql && count !== undefined && this.taken >= count;
  }

  *admit(rows: StoredRow[]): PlanPart<StoredRow[]> {
    const { residual, residualOffThread, spec, clock } = this.selection;
    if (!residual) return rows;
    const verdicts = residualOffThread ? yield* filtered(residualOffThread, rows) : undefined;
    const admitted: StoredRow[] = [];
    for (const [index, row] of rows.entries()) {
      if (this.full) break;
      const matches = verdicts ? verdicts[index] : yield* pausing(residual.evaluate(JSON.parse(row.doc) as JsonObject, clock));
      if (clock.sliceSpent) yield PAUSE;
      if (!matches) continue;
      if (this.skipped < spec.offset) {
        this.skipped += 1;
        continue;
      }
      this.taken += 1;
      admitted.push(row);
    }
    return admitted;
  }
}

function hasPattern(tree: SeqTree): boolean {
  switch (tree.kind) {
    case 'pattern':
      return true;
    case 'and':
    case 'or':
      return tree.parts.some(hasPattern);
    case 'not':
      return hasPattern(tree.part);
    default:
      return false;
  }
}

function orderedByOneValue(order: readonly OrderTerm[]): boolean {
  return order.length === 1 && !isRecordId(order[0].path);
}

/** Rows fetched by `IN (...)` come back in any order; put them back in `seqs` order. */
export function inSeqOrder(seqs: readonly number[], rows: StoredRow[]): StoredRow[] {
  const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
  const ordered: StoredRow[] = [];
  for (const seq of seqs) {
    const row = bySeq.get(seq);
    if (row) ordered.push(row);
  }
  return ordered;
}
