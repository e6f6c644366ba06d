import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalCheckpointer } from './wal-checkpointer';

describe('WalCheckpointer', () => {
  let dir: string;
  let db: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    db = new Database(join(dir, 'data.sqlite'));
    db.pragma('journal_mode = WAL');
    // Only the worker may copy frames here: what reaches the database file is its doing.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const databaseFileBytes = () => statSync(join(dir, 'data.sqlite')).size;
  const insertMegabytes = (megabytes: number) => {
    const insert = db.prepare('INSERT INTO item (text) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < megabytes * 256; i++) insert.run('x'.repeat(4000));
    })();
  };

  async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('copies committed WAL frames into the database file while the writer goes on', async () => {
    insertMegabytes(2);
    expect(databaseFileBytes()).toBeLessThan(100_000);
    const errors: Error[] = [];
    const checkpointer = WalCheckpointer.start(join(dir, 'data.sqlite'), (error) => errors.push(error), 20);
    try {
      await until(() => databaseFileBytes() > 2_000_000);
      // A write after the copy commits as usual, and the copy follows it.
      insertMegabytes(1);
      await until(() => databaseFileBytes() > 3_000_000);
      expect(db.prepare('SELECT count(*) FROM item').pluck().get()).toBe(768);
    } finally {
      await checkpointer.stop();
    }
    expect(errors).toEqual([]);
  });

  it('reports a worker that cannot open the file, and stops all the same', async () => {
    const errors: Error[] = [];
    const checkpointer = WalCheckpointer.start(join(dir, 'missing.sqlite'), (error) => errors.push(error), 20);
    await until(() => errors.length > 0);
    expect(errors[0].message).toMatch(/directory does not exist|unable to open|no such file/i);
    await checkpointer.stop();
  });
});
