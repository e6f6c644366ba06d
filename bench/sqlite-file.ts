import type { Database } from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { prepareSqliteConnection } from '../apps/inventory/src/database/data-source-options';
import { createDatabase } from '../libs/crud/src/store/store.fixtures';

/**
 * For the scripts that time the SQLite store or SQLite alone: a fresh file under bench/tmp/ with
 * the service's schema, opened as the service opens it (WAL, `prepareSqliteConnection`), and a
 * `close` that removes it with its WAL.
 */
export function openBenchSqlite(tag: string): { db: Database; close: () => void } {
  const directory = join(__dirname, 'tmp');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${tag}-${process.pid}.sqlite`);
  const db = createDatabase(file);
  db.pragma('journal_mode = WAL');
  prepareSqliteConnection(db);
  return {
    db,
    close: () => {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    },
  };
}
