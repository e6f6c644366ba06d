import { SnapshotCheckedReads, SnapshotStatements, statementKey } from './snapshot-checked-reads';
import type { SqlFragment } from './sql-dialect';

/** A database whose snapshot the test moves, counting the statements each kind sends. */
class FakeDatabase implements SnapshotStatements<string> {
  current = '10:10:';
  answers = new Map<string, string>();
  reads = 0;
  snapshots = 0;
  /** Set to hold the next snapshot statement until the test lets it answer. */
  holdSnapshot?: Promise<void>;

  async read(fragment: SqlFragment): Promise<{ snapshot: string; answer: string }> {
    this.reads++;
    return { snapshot: this.current, answer: this.answers.get(String(fragment.params[0])) ?? '' };
  }

  async snapshot(): Promise<string> {
    this.snapshots++;
    await this.holdSnapshot;
    return this.current;
  }

  sizeOf(answer: string): number {
    return answer.length;
  }
}

const fragment = (value: unknown): SqlFragment => ({ sql: 'SELECT … WHERE v.text = $1', params: [value] });
const read = (reads: SnapshotCheckedReads<string>, value: unknown) => reads.read(statementKey(fragment(value)), fragment(value), undefined);

describe('SnapshotCheckedReads', () => {
  it('answers a read again from what it kept while the snapshot has not moved, with one snapshot statement and no read', async () => {
    const db = new FakeDatabase();
    db.answers.set('a', 'A1');
    const reads = new SnapshotCheckedReads(db, 1000);
    expect(await read(reads, 'a')).toBe('A1');
    expect(await read(reads, 'a')).toBe('A1');
    expect(await read(reads, 'a')).toBe('A1');
    expect({ reads: db.reads, snapshots: db.snapshots }).toEqual({ reads: 1, snapshots: 2 });
  });

  it('reads again once the snapshot moved, and answers what the database holds now', async () => {
    const db = new FakeDatabase();
    db.answers.set('a', 'A1');
    const reads = new SnapshotCheckedReads(db, 1000);
    expect(await read(reads, 'a')).toBe('A1');
    db.answers.set('a', 'A2');
    db.current = '10:11:';
    expect(await read(reads, 'a')).toBe('A2');
    expect({ reads: db.reads, snapshots: db.snapshots }).toEqual({ reads: 2, snapshots: 1 });
    expect(await read(reads, 'a')).toBe('A2');
    expect({ reads: db.reads, snapshots: db.snapshots }).toEqual({ reads: 2, snapshots: 2 });
  });

  it('a snapshot differing only in the transactions in progress counts as moved', async () => {
    const db = new FakeDatabase();
    db.current = '10:12:10,11';
    db.answers.set('a', 'A1');
    const reads = new SnapshotCheckedReads(db, 1000);
    await read(reads, 'a');
    db.current = '10:12:10';
    db.answers.set('a', 'A2');
    expect(await read(reads, 'a')).toBe('A2');
  });

  it('sends no snapshot statement for an answer read under a snapshot older than the latest seen', async () => {
    const db = new FakeDatabase();
    db.answers.set('a', 'A').set('b', 'B');
    const reads = new SnapshotCheckedReads(db, 1000);
    await read(reads, 'a');
    db.current = '10:11:';
    await read(reads, 'b');
    expect(await read(reads, 'a')).toBe('A');
    expect({ reads: db.reads, snapshots: db.snapshots }).toEqual({ reads: 3, snapshots: 0 });
    expect(reads.size.answers).toBe(2);
  });

  it('keeps apart reads of other parameters, and never keeps one whose parameters JSON cannot tell apart', async () => {
    const db = new FakeDatabase();
    db.answers.set('a', 'A').set('b', 'B');
    const reads = new SnapshotCheckedReads(db, 1000);
    expect([await read(reads, 'a'), await read(reads, 'b'), await read(reads, 'a'), await read(reads, 'b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(db.reads).toBe(2);
    expect(statementKey(fragment(Number.NaN))).toBeUndefined();
    expect(statementKey(fragment(1))).not.toBe(statementKey(fragment('1')));
    await read(reads, Number.NaN);
    await read(reads, Number.NaN);
    expect(db.reads).toBe(4);
  });

  it('compares with the snapshot its statement answered, not the one seen when the read arrived', async () => {
    // The store's `snapshot()` is of a statement sent after the call; here a commit lands while
    // that statement is held, so the statement answers after it, with the moved snapshot.
    const db = new FakeDatabase();
    db.answers.set('a', 'A1');
    const reads = new SnapshotCheckedReads(db, 1000);
    await read(reads, 'a');
    let release!: () => void;
    db.holdSnapshot = new Promise((resolve) => (release = resolve));
    const first = read(reads, 'a');
    db.answers.set('a', 'A2');
    db.current = '10:11:';
    release();
    // The held statement answered after the commit here, so it sees the new snapshot: read again.
    expect(await first).toBe('A2');
  });

  it('forgets the oldest answers past its size, and keeps none over a sixteenth of it', async () => {
    const db = new FakeDatabase();
    const keys = Array.from({ length: 20 }, (_, k) => `k${k}`);
    for (const key of keys) db.answers.set(key, key.padEnd(6, '.'));
    db.answers.set('big', 'x'.repeat(7));
    const reads = new SnapshotCheckedReads(db, 16 * 6);
    await read(reads, 'big');
    expect(reads.size).toEqual({ answers: 0, size: 0 });
    for (const key of keys) await read(reads, key);
    expect(reads.size).toEqual({ answers: 16, size: 96 });
    const before = db.reads;
    await read(reads, 'k19');
    expect(db.reads).toBe(before);
    await read(reads, 'k0');
    expect(db.reads).toBe(before + 1);
  });
});
