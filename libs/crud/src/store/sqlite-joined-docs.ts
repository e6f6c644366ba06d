import { JoinedRecords, READ_PAGE_SIZE } from './record-store';

/**
 * A statement that selects records (`SELECT r.seq, r.id, r.doc …`, in arrival order) as two
 * texts: their sequence numbers and their documents, each joined by commas, in one row. Each
 * row of a statement costs better-sqlite3 a step and a JavaScript string; W3's statement on
 * 10k events with the answer's text built from it (a throwaway script pinned to one core,
 * 2026-12-05, a 2-core EPYC VM): 40 records 19.0-20.8 µs against 29.7-33.7 a text per row, 10
 * records 12.4-13.0 against 15.0-18.1.
 *
 * `group_concat` without its own `ORDER BY` joins its rows in an order SQLite's documentation
 * leaves unsaid; with one it sorts them again (46 µs for 40 records). Both aggregates take
 * the same rows in the same order, so the sequence numbers say which order the documents came
 * in: `joinedRecordsOf` takes the text only when they rose strictly, which is arrival order
 * with no record twice.
 */
export function joinedDocsSql(recordsSql: string): string {
  return `SELECT group_concat(seq), group_concat(doc, ',') FROM (${recordsSql})`;
}

/**
 * Why the records of `joinedDocsSql`'s row must be read row by row instead: they were more
 * than a page, or their order was not strictly arrival order (a record whose list holds the
 * value twice comes twice).
 */
export type JoinedRefusal = 'over a page' | 'not in arrival order';

/** The records of `joinedDocsSql`'s row (zero: a count of 0 and no text), or why they must be read row by row. */
export function joinedRecordsOf(seqs: string | null, docs: string | null): JoinedRecords | JoinedRefusal {
  if (seqs === null || docs === null) return new JoinedRecords(0, '');
  let count = 0;
  let previous = 0;
  let start = 0;
  for (;;) {
    const comma = seqs.indexOf(',', start);
    const seq = Number(comma < 0 ? seqs.slice(start) : seqs.slice(start, comma));
    if (!(seq > previous)) return 'not in arrival order';
    previous = seq;
    count += 1;
    if (comma < 0) break;
    start = comma + 1;
  }
  return count > READ_PAGE_SIZE ? 'over a page' : new JoinedRecords(count, docs);
}
