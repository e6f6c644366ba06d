import { inSeqOrder, RecordSelection, RowWindow, StoredRow } from './record-selection';
import { READ_PAGE_SIZE } from './record-store';
import { SqlFragment } from './where-compiler';

/** How a store runs the selection's SQL; SQLite answers synchronously, pg asynchronously. */
export interface SelectionQueries {
  rows(fragment: SqlFragment): StoredRow[] | Promise<StoredRow[]>;
  seqs(fragment: SqlFragment): number[] | Promise<number[]>;
  /** Runs between pages, e.g. to let other requests in while SQLite blocks the thread. */
  betweenPages?: () => Promise<unknown>;
}

/**
 * The rows of a selection in query order, a page at a time, for both stores. Without a filter
 * it walks the (family, seq) index in pages; otherwise it takes the candidates' sequence
 * numbers in query order and fetches them a page at a time through the RowWindow.
 */
export async function* readSelection(selection: RecordSelection, queries: SelectionQueries): AsyncIterable<StoredRow[]> {
  if (selection.pagesBySeq) {
    let remaining = selection.spec.count ?? Number.MAX_SAFE_INTEGER;
    let skip = selection.spec.offset;
    let afterSeq = 0;
    while (remaining > 0) {
      const pageSize = Math.min(READ_PAGE_SIZE, remaining);
      const rows = await queries.rows(selection.pageAfter(afterSeq, pageSize, skip));
      if (rows.length === 0) return;
      yield rows;
      // A short page is the last one: asking again would cost a query for nothing.
      if (rows.length < pageSize) return;
      remaining -= rows.length;
      skip = 0;
      afterSeq = rows[rows.length - 1].seq;
      await queries.betweenPages?.();
    }
    return;
  }
  const seqs = await queries.seqs(selection.candidateSeqs());
  const window = new RowWindow(selection);
  for (let start = 0; start < seqs.length && !window.full; start += READ_PAGE_SIZE) {
    if (start > 0) await queries.betweenPages?.();
    const page = seqs.slice(start, start + READ_PAGE_SIZE);
    const rows = window.admit(inSeqOrder(page, await queries.rows(RecordSelection.rowsBySeq(page))));
    if (rows.length > 0) yield rows;
  }
}
