import { JsonObject } from '../core/query/query.types';
import { FirstRanked, MemoryOrder, Ranked } from './memory-order';
import { inSeqOrder, RecordSelection, RowWindow, StoredRow } from './record-selection';
import { READ_PAGE_SIZE } from './record-store';
import { SqlFragment } from './where-compiler';

/**
 * One step of reading a selection: a query to run (its answer is passed back), a page of the
 * result, or a point where a long read may let other work in. Written once as a generator, the
 * plan is driven asynchronously by reads and PostgreSQL deletes, and synchronously inside a
 * SQLite delete's transaction, which must not yield.
 */
export type PlanStep =
  | { kind: 'rows'; sql: SqlFragment }
  | { kind: 'seqs'; sql: SqlFragment }
  | { kind: 'page'; rows: StoredRow[] }
  | { kind: 'pause' };

export type PlanAnswer = StoredRow[] | number[] | undefined;
export type SelectionPlan = Generator<PlanStep, void, PlanAnswer>;

/**
 * Matches answered per pass when ordering by a path the value index does not hold. A pass holds
 * up to twice this many entries (sequence number and sort keys, ~275 bytes each measured with
 * short text keys): under 30 MB whatever the result size, while results of this size or less
 * take one scan.
 */
export const MEMORY_ORDER_PASS_SIZE = 50_000;

const PAUSE: PlanStep = { kind: 'pause' };

/**
 * The rows of a selection in query order, a page at a time. Reads without a filter walk the
 * (family, seq) index; deletes take their candidates up front instead, so that records arriving
 * during a large delete are not chased. An order SQL cannot give is computed in memory.
 */
export function* selectionPlan(
  selection: RecordSelection,
  purpose: 'read' | 'delete',
  passSize = MEMORY_ORDER_PASS_SIZE,
): SelectionPlan {
  if (!selection.orderInSql) return yield* memoryOrdered(selection, passSize);
  if (purpose === 'read' && selection.pagesBySeq) return yield* arrivalPages(selection);
  const candidates = yield* seqs(selection.candidateSeqs());
  yield* fetchInOrder(candidates, new RowWindow(selection));
}

function* arrivalPages(selection: RecordSelection): SelectionPlan {
  let remaining = selection.spec.count ?? Number.MAX_SAFE_INTEGER;
  let skip = selection.spec.offset;
  let afterSeq = 0;
  while (remaining > 0) {
    const pageSize = Math.min(READ_PAGE_SIZE, remaining);
    const page = yield* rows(selection.pageAfter(afterSeq, pageSize, skip));
    if (page.length === 0) return;
    yield { kind: 'page', rows: page };
    // A short page is the last one: asking again would cost a query for nothing.
    if (page.length < pageSize) return;
    remaining -= page.length;
    skip = 0;
    afterSeq = page[page.length - 1].seq;
    yield PAUSE;
  }
}

/**
 * Scans the candidates SQL lets through (in arrival order, a page at a time), keeps the first
 * `passSize` matches after the last one already answered, answers them, and scans
 * again for the next ones until none are left or the window is full. Memory stays bounded by
 * the pass size; a result larger than one pass costs one more scan per pass. Passes read
 * separately, like paging by hand with `limit`: a record updated while a read of more than one
 * pass runs can be answered at its old and its new place, or at neither.
 */
function* memoryOrdered(selection: RecordSelection, passSize: number): SelectionPlan {
  const { offset, count } = selection.spec;
  if (count === 0) return;
  const end = count === undefined ? Number.MAX_SAFE_INTEGER : offset + count;
  const order = new MemoryOrder(selection.spec.order);
  let position = 0;
  let after: Ranked | undefined;
  while (position < end) {
    const wanted = Math.min(passSize, end - position);
    const first = new FirstRanked(wanted, order);
    let afterSeq = 0;
    for (;;) {
      const page = yield* rows(selection.pageAfter(afterSeq, READ_PAGE_SIZE, 0));
      for (const row of page) {
        const doc = JSON.parse(row.doc) as JsonObject;
        if (selection.residual && !selection.residual.matches(doc)) continue;
        const ranked = order.rank(row.seq, row.id, doc);
        if (!after || order.compare(ranked, after) > 0) first.offer(ranked);
      }
      if (page.length < READ_PAGE_SIZE) break;
      afterSeq = page[page.length - 1].seq;
      yield PAUSE;
    }
    const ranked = first.sorted();
    const skipped = Math.min(ranked.length, Math.max(0, offset - position));
    position += ranked.length;
    yield* fetchInOrder(ranked.slice(skipped).map((entry) => entry.seq));
    if (ranked.length < wanted) return;
    after = ranked[ranked.length - 1];
  }
}

/** Fetches records by sequence number a page at a time, keeping the given order. */
function* fetchInOrder(ordered: readonly number[], window?: RowWindow): SelectionPlan {
  for (let start = 0; start < ordered.length && !window?.full; start += READ_PAGE_SIZE) {
    if (start > 0) yield PAUSE;
    const page = ordered.slice(start, start + READ_PAGE_SIZE);
    const fetched = inSeqOrder(page, yield* rows(RecordSelection.rowsBySeq(page)));
    const admitted = window ? window.admit(fetched) : fetched;
    if (admitted.length > 0) yield { kind: 'page', rows: admitted };
  }
}

function* rows(sql: SqlFragment): Generator<PlanStep, StoredRow[], PlanAnswer> {
  return (yield { kind: 'rows', sql }) as StoredRow[];
}

function* seqs(sql: SqlFragment): Generator<PlanStep, number[], PlanAnswer> {
  return (yield { kind: 'seqs', sql }) as number[];
}
