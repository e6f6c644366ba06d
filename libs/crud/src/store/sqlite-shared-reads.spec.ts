import Database from 'better-sqlite3';
import { SqliteSharedReads } from './sqlite-shared-reads';
import { temporaryDatabaseFile } from './store.fixtures';

describe('SqliteSharedReads', () => {
  let temporary: ReturnType<typeof temporaryDatabaseFile>;
  let db: Database.Database;
  let writer: Database.Database;

  beforeEach(() => {
    temporary = temporaryDatabaseFile('shared-reads-');
    db = new Database(temporary.file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE item (id TEXT PRIMARY KEY)');
    writer = new Database(temporary.file);
  });

  afterEach(() => {
    writer.close();
    db.close();
    temporary.remove();
  });

  const count = () => db.prepare('SELECT count(*) FROM item').pluck().get() as number;
  const insertElsewhere = (id: string) => writer.prepare('INSERT INTO item (id) VALUES (?)').run(id);

  it('runs the reads asked for in one turn in one read transaction: they share its snapshot', async () => {
    const reads = new SqliteSharedReads(db);
    const answers = await Promise.all([
      reads.run(() => {
        const before = count();
        // Committed by another connection between two reads of the group: the second does not see it.
        insertElsewhere('a');
        return [before, db.inTransaction];
      }),
      reads.run(() => [count(), db.inTransaction]),
    ]);
    expect(answers).toEqual([
      [0, true],
      [0, true],
    ]);
    expect(db.inTransaction).toBe(false);
    expect(await reads.run(count)).toBe(1);
  });

  it('a read asked for after a write committed sees it', async () => {
    const reads = new SqliteSharedReads(db);
    expect(await reads.run(count)).toBe(0);
    insertElsewhere('a');
    const asked = reads.run(count);
    insertElsewhere('b');
    // Asked before 'b' committed, run after: it may see more, never less.
    expect(await asked).toBe(2);
  });

  it('a read that fails rejects alone; the others of its group are answered', async () => {
    const reads = new SqliteSharedReads(db);
    insertElsewhere('a');
    const [good, bad, after] = await Promise.allSettled([
      reads.run(count),
      reads.run(() => db.prepare('SELECT * FROM missing_table').all()),
      reads.run(count),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: 1 });
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_ERROR' } });
    expect(after).toEqual({ status: 'fulfilled', value: 1 });
  });

  it('a group whose transaction cannot begin fails every read of it, rather than leaving them waiting', async () => {
    const reads = new SqliteSharedReads(db);
    const asked = [reads.run(count), reads.run(count)];
    db.close();
    for (const read of asked) await expect(read).rejects.toThrow(/not open/);
  });

  it('joins a transaction the connection holds open, rather than failing to begin one', async () => {
    const reads = new SqliteSharedReads(db);
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO item (id) VALUES (?)').run('mine');
    expect(await reads.run(count)).toBe(1);
    db.exec('ROLLBACK');
    expect(await reads.run(count)).toBe(0);
  });
});
