import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteGroupCommit } from './sqlite-group-commit';

describe('SqliteGroupCommit', () => {
  let directory: string;
  let db: Database.Database;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'group-commit-'));
    db = new Database(join(directory, 'db.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE item (id TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n >= 0))');
  });

  afterEach(() => {
    db.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const insert = (id: string, n: number) => () => db.prepare('INSERT INTO item (id, n) VALUES (?, ?)').run(id, n).changes;
  const count = () => (db.prepare('SELECT count(*) AS c FROM item').get() as { c: number }).c;

  it('runs writes of the same turn in one transaction, in arrival order', async () => {
    const group = new SqliteGroupCommit(db);
    const reader = new Database(join(directory, 'db.sqlite'), { readonly: true });
    const committed = () => reader.prepare('SELECT count(*) FROM item').pluck().get();
    const seen: string[] = [];
    const results = await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        group.run(() => {
          // What the earlier writes of the group did is visible here, and not yet committed.
          seen.push(`${id}: ${String(count())} here, ${String(committed())} committed`);
          return insert(id, 1)();
        }),
      ),
    );
    expect(results).toEqual([1, 1, 1]);
    expect(seen).toEqual(['a: 0 here, 0 committed', 'b: 1 here, 0 committed', 'c: 2 here, 0 committed']);
    expect(committed()).toBe(3);
    reader.close();
  });

  it('rolls back only the write that failed, and rejects only its promise', async () => {
    const group = new SqliteGroupCommit(db);
    const outcomes = await Promise.allSettled([
      group.run(insert('a', 1)),
      group.run(() => {
        insert('b', 1)();
        return insert('c', -1)();
      }),
      group.run(insert('d', 1)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT id FROM item ORDER BY id').pluck().all()).toEqual(['a', 'd']);
  });

  it('answers nobody before the commit: the data is on disk for a second connection', async () => {
    const group = new SqliteGroupCommit(db);
    await Promise.all([group.run(insert('a', 1)), group.run(insert('b', 2))]);
    const other = new Database(join(directory, 'db.sqlite'), { readonly: true });
    expect(other.prepare('SELECT count(*) FROM item').pluck().get()).toBe(2);
    other.close();
  });

  it('starts a new group for writes that arrive after a flush', async () => {
    const group = new SqliteGroupCommit(db);
    await group.run(insert('a', 1));
    await group.run(insert('b', 1));
    expect(count()).toBe(2);
  });
});
