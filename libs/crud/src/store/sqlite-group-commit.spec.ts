import Database from 'better-sqlite3';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { temporaryDatabaseFile } from './store.fixtures';

describe('SqliteGroupCommit', () => {
  let temporary: ReturnType<typeof temporaryDatabaseFile>;
  let db: Database.Database;

  beforeEach(() => {
    temporary = temporaryDatabaseFile('group-commit-');
    db = new Database(temporary.file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE item (id TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n >= 0))');
  });

  afterEach(() => {
    db.close();
    temporary.remove();
  });

  const insert = (id: string, n: number) => () => db.prepare('INSERT INTO item (id, n) VALUES (?, ?)').run(id, n).changes;
  const count = () => (db.prepare('SELECT count(*) AS c FROM item').get() as { c: number }).c;

  it('runs writes of the same turn in one transaction, in arrival order', async () => {
    const group = new SqliteGroupCommit(db);
    const reader = new Database(temporary.file, { readonly: true });
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

  it('after a failure, runs the other writes again from the start, and each failed write once', async () => {
    const group = new SqliteGroupCommit(db);
    const runs: string[] = [];
    const write = (id: string, n: number) => () => {
      runs.push(id);
      insert(id, 1)();
      return insert(`${id}2`, n)();
    };
    const outcomes = await Promise.allSettled([
      group.run(write('a', 1)),
      group.run(write('b', -1)),
      group.run(write('c', 1)),
      group.run(write('d', -1)),
      group.run(write('e', 1)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    // First together (a, then b fails: all rolled back), then each of the others on its own.
    expect(runs).toEqual(['a', 'b', 'a', 'c', 'd', 'e']);
    expect(db.prepare('SELECT id FROM item ORDER BY id').pluck().all()).toEqual(['a', 'a2', 'c', 'c2', 'e', 'e2']);
  });

  it('fails every write of the group when the commit itself fails', async () => {
    const group = new SqliteGroupCommit(db);
    db.exec(
      'CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (parent TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    db.pragma('foreign_keys = ON');
    const outcomes = await Promise.allSettled([
      group.run(insert('a', 1)),
      group.run(() => db.prepare("INSERT INTO child (parent) VALUES ('nobody')").run().changes),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(count()).toBe(0);
  });

  it('answers nobody before the commit: the data is on disk for a second connection', async () => {
    const group = new SqliteGroupCommit(db);
    await Promise.all([group.run(insert('a', 1)), group.run(insert('b', 2))]);
    const other = new Database(temporary.file, { readonly: true });
    expect(other.prepare('SELECT count(*) FROM item').pluck().get()).toBe(2);
    other.close();
  });

  it('starts a new group for writes that arrive after a flush', async () => {
    const group = new SqliteGroupCommit(db);
    await group.run(insert('a', 1));
    await group.run(insert('b', 1));
    expect(count()).toBe(2);
  });

  it('calls `settled` once per group, outside its transaction, whether it committed, failed in part or failed whole', async () => {
    const seen: string[] = [];
    const group = new SqliteGroupCommit(db, () =>
      seen.push(`settled, in a transaction: ${String(db.inTransaction)}, rows: ${String(count())}`),
    );
    await Promise.all([group.run(insert('a', 1)), group.run(insert('b', 1))]);
    // One write fails: the others run again in savepoints of their own, and the group settles once.
    await Promise.allSettled([group.run(insert('c', 1)), group.run(insert('d', -1)), group.run(insert('e', 1))]);
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON item BEGIN SELECT RAISE(ABORT, 'refused'); END");
    await Promise.allSettled([group.run(insert('f', 1))]);
    expect(seen).toEqual([
      'settled, in a transaction: false, rows: 2',
      'settled, in a transaction: false, rows: 4',
      'settled, in a transaction: false, rows: 4',
    ]);
  });
});
