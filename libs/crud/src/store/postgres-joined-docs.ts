/** The statement's snapshot as text (`xmin:xmax:xip,…`): no space in it. */
const SNAPSHOT = 'pg_current_snapshot()::text';

/**
 * PostgreSQL's `joinedDocsSql` (sqlite-joined-docs.ts): a statement that selects records
 * (`SELECT r.seq, r.id, r.doc …`, in arrival order) as one row of two texts, the sequence
 * numbers and the documents each joined by commas, which `joinedRecordsOf` takes only when the
 * numbers rise strictly. The row keeps the columns of a record row (`seq` 0, the numbers as
 * `id`, the documents as `doc`), so that `GroupedSelections` sends several clients' reads as one
 * statement and parses its rows as it parses any: each read's branch is one row. `id` starts
 * with the statement's snapshot and a space, for `SnapshotCheckedReads`.
 *
 * Each row costs pg's protocol parser and the store a message and strings. W3's statement on
 * 10k events grouped by 40, ten reads at a time, pg alone pinned to one core (a throwaway script,
 * 2026-12-06, a 2-core Xeon VM): 47.6-55.1 µs of CPU a read against 77.6-88.4 a row per record,
 * 35.7-40.3 against 44.0-51.1 at 10 matches. Over HTTP at 40 matches (two runs against four),
 * 133-179 µs of the service's CPU a W3 answer against 173-198 (README "Performance").
 */
export function postgresJoinedDocsSql(recordsSql: string): string {
  return `SELECT 0 AS seq, ${SNAPSHOT} || ' ' || coalesce(string_agg(j.seq::text, ','), '') AS id, string_agg(j.doc, ',') AS doc FROM (${recordsSql}) AS j`;
}

/** A statement that reads no record: its snapshot, as `id` of a record-shaped row. */
export const SNAPSHOT_SQL = `SELECT 0 AS seq, ${SNAPSHOT} AS id, '' AS doc`;

/** The joined row's texts: its snapshot, and its sequence numbers and documents (both null when nothing matched). */
export function joinedDocsOf(row: { id: string; doc: string | null } | undefined): {
  snapshot: string;
  seqs: string | null;
  docs: string | null;
} {
  const space = row?.id.indexOf(' ') ?? -1;
  if (row === undefined || space < 0) throw new Error('the joined statement answered no row with a snapshot');
  const seqs = row.id.slice(space + 1);
  return { snapshot: row.id.slice(0, space), seqs: seqs === '' ? null : seqs, docs: row.doc };
}
