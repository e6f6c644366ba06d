import { QueryEvaluator } from '../core/query/query-evaluator';
import { checkPattern } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { FirstRanked, MemoryOrder, Ranked } from './memory-order';
import { filtered, PAUSE, pausing, PlanAnswer, PlanPart, PlanStep, rows, seqAtOffset, seqs } from './plan-step';
import { inSeqOrder, RecordSelection, RowWindow, StoredRow } from './record-selection';
import { READ_PAGE_SIZE } from './record-store';
import { evaluateSeqTree } from './seq-tree-plan';
import { firstInArrivalOrder, firstNotInArrivalOrder } from './first-in-arrival-order';
import { SeqSet } from './seq-set';
import { topByIndex } from './top-by-index';

export type { PlanAnswer, PlanStep } from './plan-step';
export type SelectionPlan = Generator<PlanStep, void, PlanAnswer>;

/**
 * Matches answered per pass when ordering in memory (a path the value index does not hold, or
 * more terms than the dialect sorts in SQL). A pass holds this many entries (sequence number
 * and sort keys, ~275 bytes each measured with short text keys): under 15 MB whatever the
 * result size, while results of this size or less take one scan.
 */
export const MEMORY_ORDER_PASS_SIZE = 50_000;

/**
 * The rows of a selection in query order, a page at a time. Reads without a filter walk the
 * (family, seq) index; deletes take their candidates up front instead, so that records arriving
 * during a large delete are not chased. An order SQL cannot give is computed in memory.
 */
export function* selectionPlan(selection: RecordSelection, purpose: 'read' | 'delete', passSize = MEMORY_ORDER_PASS_SIZE): SelectionPlan {
  yield* checkPatterns(selection);
  // A read in arrival order that SQL decides needs only the matches up to its window's end.
  const { order, offset, count, family } = selection.spec;
  const firstOnly = purpose === 'read' && order.length === 0 && selection.windowInSql && count !== undefined ? offset + count : undefined;
  if (purpose === 'read' && (yield* equalityRows(selection))) return;
  if (selection.tree) {
    selection.narrowTo(yield* evaluateSeqTree(selection.tree, { family, clock: selection.clock, dialect: selection.dialect }, firstOnly));
  } else if (selection.leaf && firstOnly !== undefined) {
    // PostgreSQL plans a leaf's IN with a window from estimates it cannot have (one statistics
    // for every path's values): it read all 20k matches of an equality to answer the first ten.
    const first = yield* firstInArrivalOrder(selection.leaf, family, firstOnly, selection.clock, selection.dialect);
    selection.narrowTo(new SeqSet(new Set(first), false));
  } else if (selection.notLeaf && firstOnly !== undefined) {
    // The same for `not` of a leaf, which PostgreSQL answered with a hash of all the leaf's
    // matches (`NOT IN`: 7.3-8.3 ms for 20k of 100k events) to keep the first ten of the rest.
    const first = yield* firstNotInArrivalOrder(selection.notLeaf, family, firstOnly, selection.clock, selection.dialect);
    if (first) selection.narrowTo(new SeqSet(new Set(first), false));
  }
  if (!selection.orderInSql) return yield* memoryOrdered(selection, passSize);
  if (purpose === 'read' && selection.pagesBySeq) {
    return yield* selection.spec.id === undefined ? arrivalPages(selection) : recordById(selection);
  }
  const window = new RowWindow(selection);
  const listed = selection.candidateList;
  if (listed && selection.spec.order.length === 0) {
    // Already in arrival order: no statement needed to sort them, and an exact window is a slice.
    const { offset, count } = selection.spec;
    const slice = selection.windowInSql ? listed.slice(offset, count === undefined ? undefined : offset + count) : listed;
    return yield* fetchInOrder(family, slice, window);
  }
  if (purpose === 'read' && selection.walksIndexForOrder) {
    const top = yield* topByIndex(selection);
    if (top) return yield* fetchInOrder(family, top.slice(selection.spec.offset));
  }
  if (selection.windowInSql && (yield* smallResult(selection))) return;
  const candidates = yield* seqs(selection.candidateSeqs());
  yield* fetchInOrder(family, candidates, window);
}

/**
 * An equality on one value read in arrival order (W3, W3U), its records in one statement. On
 * SQLite the tree's plan took one statement for their sequence numbers and another for their
 * rows, each a turn of the store's shared reads (the store alone, W3: 56-58 -> 36-42 µs of CPU a
 * read). On PostgreSQL a window took four round trips (`firstInArrivalOrder`, then the rows):
 * 5.7-6.0 ms for the first 100 of 10k events, one client, against 0.29 ms now. The statement
 * reads up to the window's end, or a page and one more without a count; more than a page of
 * matches is then read as before, from the list of its candidates, and only the probe is lost.
 */
function* equalityRows(selection: RecordSelection): PlanPart<boolean> {
  const { offset, count } = selection.spec;
  const windowEnd = count === undefined ? Number.MAX_SAFE_INTEGER : offset + count;
  const withinPage = windowEnd <= READ_PAGE_SIZE;
  if (!withinPage && selection.equalityOverAPage) return false;
  const limit = withinPage ? roundedUp(windowEnd) : READ_PAGE_SIZE + 1;
  const statement = selection.equalityRows(limit);
  if (!statement) return false;
  const found = yield* rows(statement);
  if (!withinPage && found.length > READ_PAGE_SIZE) return false;
  // A record whose list holds the value twice comes twice, side by side: a statement that
  // stopped at its limit may then hold too few records for the window.
  const distinct = found.filter((row, index) => index === 0 || row.seq !== found[index - 1].seq);
  if (found.length === limit && distinct.length < windowEnd) return false;
  const window = distinct.slice(offset, windowEnd);
  if (window.length > 0) yield { kind: 'page', rows: window };
  return true;
}

/**
 * A window's end as `equalityRows`' limit: the next power of two. The limit is part of the
 * statement's text (see `equalRowsInArrivalOrder`), so a client paging through matches uses a
 * dozen prepared statements, not one per page.
 */
function roundedUp(windowEnd: number): number {
  let limit = 1;
  while (limit < windowEnd) limit *= 2;
  return limit;
}

/**
 * Most filtered reads match a page or less: their rows come in one statement, instead of one for
 * the candidates' sequence numbers and one for their rows (on PostgreSQL, two round trips). A
 * larger result is read as before, from a list of its candidates taken up front, so that its
 * pages cannot skip or repeat records written meanwhile; only the probe is lost.
 */
function* smallResult(selection: RecordSelection): PlanPart<boolean> {
  const { count } = selection.spec;
  const found = yield* rows(selection.firstRows(Math.min(count ?? Number.MAX_SAFE_INTEGER, READ_PAGE_SIZE + 1)));
  if (found.length > READ_PAGE_SIZE) return false;
  if (found.length > 0) yield { kind: 'page', rows: found };
  return true;
}

/**
 * A path id without a query names at most one record: one lookup by (family, id), without the
 * ORDER BY, LIMIT and OFFSET of a page, which tripled the statement's cost on SQLite (9 µs
 * against 3 µs per lookup, measured; W1 in README "Performance").
 */
function* recordById(selection: RecordSelection): SelectionPlan {
  const { offset, count } = selection.spec;
  if (offset > 0 || count === 0) return;
  const found = yield* rows(selection.byId());
  if (found.length > 0) yield { kind: 'page', rows: found };
}

function* arrivalPages(selection: RecordSelection): SelectionPlan {
  let remaining = selection.spec.count ?? Number.MAX_SAFE_INTEGER;
  let skip = selection.spec.offset;
  let afterSeq = 0;
  if (skip > 0 && remaining > 0) {
    // The offset is counted in the (family, seq) index alone; skipping rows in the page's own
    // statement read each skipped record too (PostgreSQL also converted its document: 43 ms
    // for a page at offset 50,000, against 8 ms to find where the page starts).
    const first = yield* seqAtOffset(selection.spec.family, skip, selection.seqAtOffset(skip));
    if (first === undefined) return;
    afterSeq = first - 1;
    skip = 0;
  }
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
    const { residual, residualOffThread, clock } = selection;
    for (;;) {
      const page = yield* candidatesAfter(selection, afterSeq);
      const verdicts = residualOffThread ? yield* filtered(residualOffThread, page.rows) : undefined;
      for (const [index, row] of page.rows.entries()) {
        if (verdicts && !verdicts[index]) continue;
        const doc = JSON.parse(row.doc) as JsonObject;
        const matches = verdicts !== undefined || !residual || (yield* pausing(residual.evaluate(doc, clock)));
        if (matches) {
          const ranked = order.rank(row.seq, row.id, doc);
          if (!after || order.compare(ranked, after) > 0) first.offer(ranked);
        }
        if (clock.sliceSpent) yield PAUSE;
      }
      if (page.last === undefined) break;
      afterSeq = page.last;
      yield PAUSE;
    }
    const ranked = yield* pausing(first.drain(clock));
    const skipped = Math.min(ranked.length, Math.max(0, offset - position));
    position += ranked.length;
    yield* fetchInOrder(
      selection.spec.family,
      ranked.slice(skipped).map((entry) => entry.seq),
    );
    if (ranked.length < wanted) return;
    after = ranked[ranked.length - 1];
  }
}

/**
 * Compiles the query's regular expressions before anything is read or deleted (a bad one is the
 * parser's 400), letting other requests in between: compiling 100 patterns with counted
 * repetitions takes most of a second. The evaluator then finds them compiled.
 */
function* checkPatterns(selection: RecordSelection): SelectionPlan {
  const { where } = selection.spec;
  if (!where) return;
  for (const pattern of QueryEvaluator.regExpPatterns(where)) {
    checkPattern(pattern, 'where.reg_exp');
    if (selection.clock.sliceSpent) yield PAUSE;
  }
}

/**
 * The next page of candidates after `afterSeq` in arrival order, and the last sequence number
 * it covered (undefined when there are no more): from the known list of candidates, or from the
 * family's pages less the excluded records, or (PostgreSQL) from pages SQL filters.
 */
function* candidatesAfter(selection: RecordSelection, afterSeq: number): PlanPart<{ rows: StoredRow[]; last?: number }> {
  const listed = selection.candidateList;
  if (listed) {
    const start = firstAbove(listed, afterSeq);
    const chunk = listed.slice(start, start + READ_PAGE_SIZE);
    const fetched = chunk.length === 0 ? [] : inSeqOrder(chunk, yield* rows(RecordSelection.rowsBySeq(selection.spec.family, chunk)));
    return { rows: fetched, last: start + chunk.length < listed.length ? chunk[chunk.length - 1] : undefined };
  }
  const page = yield* rows(selection.pageAfter(afterSeq, READ_PAGE_SIZE, 0));
  const { excluded } = selection;
  return {
    rows: excluded ? page.filter((row) => !excluded.has(row.seq)) : page,
    last: page.length < READ_PAGE_SIZE ? undefined : page[page.length - 1].seq,
  };
}

/** The position of the first element above `seq` in an ascending list. */
function firstAbove(list: readonly number[], seq: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle] <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Fetches records of `family` by sequence number a page at a time, keeping the given order. */
function* fetchInOrder(family: string, ordered: readonly number[], window?: RowWindow): SelectionPlan {
  for (let start = 0; start < ordered.length && !window?.full; start += READ_PAGE_SIZE) {
    if (start > 0) yield PAUSE;
    const page = ordered.slice(start, start + READ_PAGE_SIZE);
    const fetched = inSeqOrder(page, yield* rows(RecordSelection.rowsBySeq(family, page)));
    const admitted = window ? yield* window.admit(fetched) : fetched;
    if (admitted.length > 0) yield { kind: 'page', rows: admitted };
  }
}
