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
 * in: `joinedRecordsOf` (record-store.ts) takes the text only when they rose strictly, which is arrival order
 * with no record twice.
 */
export function joinedDocsSql(recordsSql: string): string {
  return `SELECT group_concat(seq), group_concat(doc, ',') FROM (${recordsSql})`;
}
