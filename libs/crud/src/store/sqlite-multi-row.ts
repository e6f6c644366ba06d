import type { Statement } from 'better-sqlite3';

/**
 * Multi-row `INSERT`s for the SQLite store. A `run` per row paid, per row, a trip through
 * better-sqlite3's binding and a statement reset; one statement for up to 64 rows, kept free of
 * a statement journal (below), took SQLite's part of ingesting an event from 12.4 to 9.5 µs
 * (`bench/sqlite-floor.ts` and its `--one-row`, README "Performance"). A run of rows is split
 * into power-of-two counts, so a statement shape has at most seven texts to prepare and cache.
 */
export const MOST_ROWS_PER_STATEMENT = 64;

/** `total` as power-of-two counts, largest first, none above `most` (a power of two). */
export function rowCounts(total: number, most = MOST_ROWS_PER_STATEMENT): number[] {
  const counts: number[] = [];
  let left = total;
  for (; left >= most; left -= most) counts.push(most);
  for (let count = most / 2; count >= 1; count /= 2) {
    if (left >= count) {
      counts.push(count);
      left -= count;
    }
  }
  return counts;
}

/**
 * The texts of one multi-row `INSERT`, `head VALUES (?, …), … tail`, built once per row count:
 * the same string each time, so that the statement cache hashes it once.
 */
export class MultiRowInsert {
  private readonly texts: string[] = [];

  constructor(
    private readonly head: string,
    readonly columns: number,
    private readonly tail = '',
  ) {}

  sql(rows: number): string {
    let text = this.texts[rows];
    if (text === undefined) {
      const row = `(${Array.from({ length: this.columns }, () => '?').join(', ')})`;
      text = `${this.head} VALUES ${Array.from({ length: rows }, () => row).join(', ')}${this.tail}`;
      this.texts[rows] = text;
    }
    return text;
  }
}

/*
 * `OR FAIL`, not the default ABORT: a statement that writes several rows and may abort halfway
 * keeps a statement journal inside a transaction, a copy of every page it touches before it
 * touches it (`perf` of W4: 19 % of the service's samples under `subjournalPageIfRequired`,
 * most of them `pwrite`s to a temporary file). A FAIL leaves the rows before it in place; every
 * caller runs these inside a transaction that a failed write rolls back (SqliteGroupCommit, a
 * savepoint there, or `db.transaction`), so nothing half-written is ever committed. SQLite alone,
 * against the same statements without `OR FAIL`: 12.5 → 9.5 µs per event (three value rows
 * 7.35 → 4.87).
 */

/**
 * Records that require none; a record whose id was stored, or came earlier, is skipped. No
 * RETURNING: rows go in in order under AUTOINCREMENT on the one writing connection, so when
 * every row went in their seqs are the `changes` seqs ending at `lastInsertRowid`, and only a
 * run that skipped some asks which (`INSERTED_SINCE`).
 */
export const INSERT_RECORDS = new MultiRowInsert(
  'INSERT OR FAIL INTO inventory_record (family, id, doc)',
  3,
  ' ON CONFLICT (family, id) DO NOTHING',
);

/** The rows a run that skipped some did write: the last `changes` seqs up to `lastInsertRowid`. */
export const INSERTED_SINCE = 'SELECT seq, id FROM inventory_record WHERE seq <= ? ORDER BY seq DESC LIMIT ?';

export const INSERT_VALUES = new MultiRowInsert('INSERT OR FAIL INTO inventory_value (seq, path_key, kind, text, num)', 5);

/**
 * Runs `params`, rows of `insert.columns` values laid end to end, through `insert`'s statements
 * in power-of-two runs; `statement` prepares (or finds) the statement of a text.
 */
export function insertRows(insert: MultiRowInsert, params: readonly unknown[], statement: (sql: string) => Statement): void {
  let offset = 0;
  for (const count of rowCounts(params.length / insert.columns)) {
    statement(insert.sql(count)).run(...params.slice(offset, offset + count * insert.columns));
    offset += count * insert.columns;
  }
}
