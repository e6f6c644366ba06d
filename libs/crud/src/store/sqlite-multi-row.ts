/**
 * Multi-row `INSERT` texts for SQLite. A `run` per row paid, per row, a trip through
 * better-sqlite3's binding and a statement reset; one statement for up to 64 rows took SQLite's
 * part of ingesting an event from 9.5 to 8.5 µs (README "Performance"). A run of rows is split
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
