import { QueryEvaluator } from '../core/query/query-evaluator';
import { Condition, JsonObject, OrderTerm } from '../core/query/query.types';
import { marks, SqlDialect } from './sql-dialect';
import { ValueIndex } from './value-index';
import { compileWhere, isRecordId, SqlFragment } from './where-compiler';

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
}

export interface StoredRow {
  seq: number;
  id: string;
  doc: string;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The SQL for one selection, in the `?` form both stores share. When the where clause has parts
 * SQL cannot decide, `residual` re-checks candidate rows in memory and the window (offset,
 * count) is applied after it instead of in SQL.
 */
export class RecordSelection {
  readonly residual?: QueryEvaluator;
  private readonly filter: SqlFragment;

  constructor(
    readonly spec: SelectionSpec,
    dialect: SqlDialect,
  ) {
    const clauses = ['r.family = ?'];
    const params: unknown[] = [spec.family];
    if (spec.id !== undefined) {
      clauses.push('r.id = ?');
      params.push(spec.id);
    }
    if (spec.where) {
      const compiled = compileWhere(spec.where, spec.family, spec.valueIndex, dialect);
      clauses.push(compiled.sql);
      params.push(...compiled.params);
      if (!compiled.exact) this.residual = new QueryEvaluator(spec.where);
    }
    this.filter = { sql: clauses.join(' AND '), params };
  }

  /** Arrival order with no value filter reads the (family, seq) index in pages, nothing else. */
  get pagesBySeq(): boolean {
    return this.spec.order.length === 0 && !this.spec.where;
  }

  /**
   * SQL orders by the value index only when the index holds every ordered path; otherwise the
   * order is computed from the records in memory (see `MemoryOrder`).
   */
  get orderInSql(): boolean {
    return this.spec.order.every((term) => isRecordId(term.path) || this.spec.valueIndex.covers(term.path));
  }

  /** Offset and count go into SQL only when SQL alone decides what matches. */
  get windowInSql(): boolean {
    return !this.residual;
  }

  /** One page of rows after `afterSeq`, in arrival order. */
  pageAfter(afterSeq: number, pageSize: number, skip: number): SqlFragment {
    return {
      sql: `SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE ${this.filter.sql} AND r.seq > ? ORDER BY r.seq LIMIT ? OFFSET ?`,
      params: [...this.filter.params, afterSeq, pageSize, skip],
    };
  }

  /** The sequence numbers of every candidate, in query order. */
  candidateSeqs(): SqlFragment {
    const order = this.orderBy();
    const sql = `SELECT r.seq FROM inventory_record r WHERE ${this.filter.sql} ORDER BY ${order.sql}`;
    if (!this.windowInSql) return { sql, params: [...this.filter.params, ...order.params] };
    return {
      sql: `${sql} LIMIT ? OFFSET ?`,
      params: [...this.filter.params, ...order.params, this.spec.count ?? NO_LIMIT, this.spec.offset],
    };
  }

  static rowsBySeq(seqs: readonly number[]): SqlFragment {
    return { sql: `SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.seq IN (${marks(seqs.length)})`, params: [...seqs] };
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
      for (const column of ['num', 'text']) {
        terms.push(
          `(SELECT ${pick}(v.${column}) FROM inventory_value v WHERE v.seq = r.seq AND v.path = ?) ${direction} NULLS LAST`,
        );
        params.push(term.path.join('.'));
      }
    }
    terms.push('r.seq ASC');
    return { sql: terms.join(', '), params };
  }
}

/**
 * Applies the in-memory part of a selection to rows arriving in order: the residual check,
 * then the offset and count when SQL could not apply them.
 */
export class RowWindow {
  private skipped = 0;
  private taken = 0;

  constructor(private readonly selection: RecordSelection) {}

  get full(): boolean {
    const { count } = this.selection.spec;
    return !this.selection.windowInSql && count !== undefined && this.taken >= count;
  }

  admit(rows: StoredRow[]): StoredRow[] {
    const { residual, spec } = this.selection;
    if (!residual) return rows;
    const admitted: StoredRow[] = [];
    for (const row of rows) {
      if (this.full) break;
      if (!residual.matches(JSON.parse(row.doc) as JsonObject)) continue;
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
