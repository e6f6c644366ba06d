import { GROUP_MAX_RECORDS, GROUPED_REQUEST_MAX_RECORDS, GroupedInserts } from './grouped-inserts';
import { InsertOutcome, NewRecord, StoreUnavailableError } from './record-store';
import { ValueIndex } from './value-index';

const INDEX = ValueIndex.EVERY_PATH;
const record = (id: string): NewRecord => ({ id, doc: { id } });

/** A database that refuses the record `bad` (the whole transaction fails) and remembers every call. */
function fakeDatabase(failure: (records: readonly NewRecord[]) => Error | undefined = refuseBad) {
  const calls: { family: string; ids: string[] }[] = [];
  const stored = new Set<string>();
  const insertNow = (family: string, records: readonly NewRecord[], _index?: ValueIndex): Promise<InsertOutcome[]> => {
    calls.push({ family, ids: records.map((r) => r.id) });
    const error = failure(records);
    if (error) return Promise.reject(error);
    return Promise.resolve(
      records.map((r): InsertOutcome => {
        if (stored.has(`${family}/${r.id}`)) return 'duplicate';
        stored.add(`${family}/${r.id}`);
        return 'inserted';
      }),
    );
  };
  return { calls, insertNow };
}

function refuseBad(records: readonly NewRecord[]): Error | undefined {
  return records.some((r) => r.id === 'bad') ? new Error('refused by the database') : undefined;
}

describe('GroupedInserts', () => {
  it('sends the creates of one turn for one family as one batch, and answers each its own outcomes', async () => {
    const db = fakeDatabase();
    const inserts = new GroupedInserts(db.insertNow);
    const answers = await Promise.all([
      inserts.insert('event', [record('a'), record('b')], INDEX),
      inserts.insert('event', [record('c')], INDEX),
      inserts.insert('event', [record('a')], INDEX),
    ]);
    expect(db.calls).toEqual([{ family: 'event', ids: ['a', 'b', 'c'] }]);
    // The second request for `a` arrived later in the turn: it is the duplicate, as if it had committed second.
    expect(answers).toEqual([['inserted', 'inserted'], ['inserted'], ['duplicate']]);
  });

  it('keeps families apart, and turns apart', async () => {
    const db = fakeDatabase();
    const inserts = new GroupedInserts(db.insertNow);
    await Promise.all([inserts.insert('event', [record('a')], INDEX), inserts.insert('data', [record('a')], INDEX)]);
    expect(await inserts.insert('event', [record('a')], INDEX)).toEqual(['duplicate']);
    expect(db.calls).toEqual([
      { family: 'event', ids: ['a'] },
      { family: 'data', ids: ['a'] },
      { family: 'event', ids: ['a'] },
    ]);
  });

  it("retries each request alone when the shared transaction fails, so one request's refusal is not its neighbours'", async () => {
    const db = fakeDatabase();
    const inserts = new GroupedInserts(db.insertNow);
    const [good, bad, other] = await Promise.allSettled([
      inserts.insert('event', [record('a')], INDEX),
      inserts.insert('event', [record('bad')], INDEX),
      inserts.insert('event', [record('c')], INDEX),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: ['inserted'] });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'refused by the database' } });
    expect(other).toEqual({ status: 'fulfilled', value: ['inserted'] });
    expect(db.calls.map((call) => call.ids)).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('fails the whole group at once, without retrying, when the database is unreachable', async () => {
    const db = fakeDatabase(() => new StoreUnavailableError(new Error('connection refused')));
    const inserts = new GroupedInserts(db.insertNow);
    const settled = await Promise.allSettled([
      inserts.insert('event', [record('a')], INDEX),
      inserts.insert('event', [record('b')], INDEX),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(db.calls).toHaveLength(1);
  });

  it('sends a request whose value index differs from its group separately', async () => {
    const db = fakeDatabase();
    const inserts = new GroupedInserts(db.insertNow);
    const other = ValueIndex.of(['source']);
    const answers = await Promise.all([inserts.insert('event', [record('a')], INDEX), inserts.insert('event', [record('b')], other)]);
    expect(answers).toEqual([['inserted'], ['inserted']]);
    expect(db.calls.map((call) => call.ids).sort()).toEqual([['a'], ['b']]);
  });

  it('sends a large request alone, at once', async () => {
    const db = fakeDatabase();
    const inserts = new GroupedInserts(db.insertNow);
    const large = Array.from({ length: GROUPED_REQUEST_MAX_RECORDS }, (_, n) => record(`big-${n}`));
    const [small, big] = await Promise.all([inserts.insert('event', [record('a')], INDEX), inserts.insert('event', large, INDEX)]);
    expect(small).toEqual(['inserted']);
    expect(big).toHaveLength(GROUPED_REQUEST_MAX_RECORDS);
    expect(db.calls.map((call) => call.ids.length)).toEqual([GROUPED_REQUEST_MAX_RECORDS, 1]);
  });

  it("commits a later turn's group without waiting for an earlier one still committing", async () => {
    const db = fakeDatabase();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inserts = new GroupedInserts(async (family, records, index) => {
      if (records[0].id === 'first') await held;
      return db.insertNow(family, records, index);
    });
    const first = inserts.insert('event', [record('first')], INDEX);
    await new Promise((resolve) => setImmediate(resolve));
    const later = await Promise.all(['b', 'c', 'd'].map((id) => inserts.insert('event', [record(id)], INDEX)));
    expect(later).toEqual([['inserted'], ['inserted'], ['inserted']]);
    release();
    expect(await first).toEqual(['inserted']);
    expect(db.calls.map((call) => call.ids)).toEqual([['b', 'c', 'd'], ['first']]);
  });

  it('starts a new group once one holds GROUP_MAX_RECORDS', async () => {
    const db = fakeDatabase();
    const inserts = new GroupedInserts(db.insertNow);
    const size = GROUPED_REQUEST_MAX_RECORDS - 1;
    const requests = Math.ceil(GROUP_MAX_RECORDS / size) + 1;
    await Promise.all(
      Array.from({ length: requests }, (_, r) =>
        inserts.insert(
          'event',
          Array.from({ length: size }, (_, n) => record(`${r}-${n}`)),
          INDEX,
        ),
      ),
    );
    expect(db.calls.length).toBeGreaterThan(1);
    for (const call of db.calls) expect(call.ids.length).toBeLessThanOrEqual(GROUP_MAX_RECORDS);
    expect(db.calls.reduce((sum, call) => sum + call.ids.length, 0)).toBe(requests * size);
  });
});
