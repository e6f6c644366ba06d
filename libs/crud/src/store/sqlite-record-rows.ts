import { StoredRow } from './record-selection';

/** How every statement that selects records starts (record-selection.ts, sql-dialect.ts). */
const RECORD_COLUMNS = 'SELECT r.seq, r.id, r.doc ';
/**
 * The same record as one text: `seq`, `id` and `doc` joined by U+0002, which neither a sequence
 * number nor an id holds (ids have no control characters); the document comes last, so it is
 * read whole whatever it holds (being JSON text, it can only hold U+0002 escaped).
 */
const JOINED_RECORD_COLUMNS = 'SELECT r.seq || char(2) || r.id || char(2) || r.doc ';
const SEPARATOR = '\u0002';

/**
 * The statement `sql` with each record selected as one text (see `recordRowOfText`), or
 * undefined when `sql` does not select records. better-sqlite3 makes a JavaScript value of each
 * column of each row, and one text a row costs less than three values (W3's statement on 10k
 * events and the answer's text, a throwaway script, 2026-12-05, a 2-core EPYC VM: 40 records
 * 31.8-32.2 µs against 38.8-41.6 as arrays of columns, 10 records 14.7-16.5 against 15.8-18.2;
 * as objects, 10 records had cost 32 µs against 24 as arrays, 2026-11-28).
 */
export function joinedRecordSql(sql: string): string | undefined {
  return sql.startsWith(RECORD_COLUMNS) ? JOINED_RECORD_COLUMNS + sql.slice(RECORD_COLUMNS.length) : undefined;
}

/** A row of `joinedRecordSql`'s statement as the record it joins. */
export function recordRowOfText(text: string): StoredRow {
  const afterSeq = text.indexOf(SEPARATOR);
  const afterId = text.indexOf(SEPARATOR, afterSeq + 1);
  return { seq: Number(text.slice(0, afterSeq)), id: text.slice(afterSeq + 1, afterId), doc: text.slice(afterId + 1) };
}
