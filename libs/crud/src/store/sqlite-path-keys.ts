import type { Database, Statement } from 'better-sqlite3';

/**
 * The integer that stands for a family's path in SQLite's value rows (`inventory_value_path`),
 * instead of the family's and the path's text in every row and in each of its index entries:
 * smaller entries dirty fewer pages, which the commit writes to the WAL and the checkpoint copies
 * again. `bench/sqlite-floor.ts` put SQLite's part of ingesting an event (checkpoints included)
 * at 10.5–10.6 → 8.7–9.0 µs with its values in order and 31.5–31.8 → 24.1–24.4 µs with two of
 * its three indexed values scattered; W4 went from 39–51k to 48–54k records/s (README
 * "Performance").
 *
 * Keys are handed out inside the write's transaction, so a key can be rolled back with it and
 * the same number handed out again for another path. So only keys read outside any write are
 * kept (`confirm`, after each transaction): once committed, a key never changes or goes.
 */
export class SqlitePathKeys {
  private readonly committed = new Map<string, Map<string, number>>();
  /** Paths looked up inside a transaction and not yet known to be committed. */
  private readonly unconfirmed = new Map<string, Set<string>>();
  private statements?: { insert: Statement; select: Statement };

  constructor(private readonly db: Database) {}

  /** Prepared at first use: a store may be opened before the migrations that make the table have run. */
  private get prepared(): { insert: Statement; select: Statement } {
    return (this.statements ??= {
      insert: this.db.prepare('INSERT INTO inventory_value_path (family, path) VALUES (?, ?) ON CONFLICT (family, path) DO NOTHING'),
      select: this.db.prepare('SELECT key FROM inventory_value_path WHERE family = ? AND path = ?').pluck(),
    });
  }

  /**
   * A lookup for one write: inside its transaction, it hands out keys for new paths. It is used
   * and dropped within that write, so no key outlives the transaction that may roll it back.
   */
  forWrite(family: string): (path: string) => number {
    const known = this.committed.get(family);
    let handedOut: Map<string, number> | undefined;
    return (path) => {
      const key = known?.get(path) ?? handedOut?.get(path);
      if (key !== undefined) return key;
      const { insert, select } = this.prepared;
      insert.run(family, path);
      const fresh = select.get(family, path) as number;
      (handedOut ??= new Map()).set(path, fresh);
      let paths = this.unconfirmed.get(family);
      if (!paths) this.unconfirmed.set(family, (paths = new Set<string>()));
      paths.add(path);
      return fresh;
    };
  }

  /** After a transaction, committed or not: keeps the keys of paths it looked up that are now committed. */
  confirm(): void {
    if (this.unconfirmed.size === 0 || this.db.inTransaction) return;
    try {
      const { select } = this.prepared;
      for (const [family, paths] of this.unconfirmed) {
        let known = this.committed.get(family);
        for (const path of paths) {
          const key = select.get(family, path) as number | undefined;
          if (key === undefined) continue;
          if (!known) this.committed.set(family, (known = new Map<string, number>()));
          known.set(path, key);
        }
      }
      this.unconfirmed.clear();
    } catch {
      // A closed or busy database: the paths stay unconfirmed and are looked up in SQL meanwhile.
    }
  }
}
