import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SeqHints } from './seq-hints';
import { SqliteRecordStore } from './sqlite-record.store';
import { createDatabase, eq, insertAll, NAMED_VALUE_ROWS, parseWhere, readAll, readIds } from './store.fixtures';
import { ValueIndex } from './value-index';

/** What happens to a family's stored value rows when its declaration changes between starts. */
describe('adopting a value index (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  const docs = Array.from({ length: 2500 }, (_, i) => ({
    id: `e${i}`,
    source: `s${i % 10}`,
    timestamp: `t${i}`,
    host: { name: `h${i % 3}` },
  }));
  const paths = () => db.prepare(`SELECT DISTINCT path FROM ${NAMED_VALUE_ROWS} WHERE family = 'event' ORDER BY path`).pluck().all();
  const setting = () => db.prepare("SELECT value FROM inventory_setting WHERE name = 'value_index:event'").pluck().get();
  const hostH1 = (valueIndex: ValueIndex) => readIds(store, { family: 'event', valueIndex, where: parseWhere(eq('host.name', 'h1')) });
  const expectedH1 = docs.filter((doc) => doc.host.name === 'h1').map((doc) => doc.id);

  beforeEach(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    // Written before declarations existed: every path has rows, and there is no setting.
    await insertAll(store, 'event', docs, ValueIndex.EVERY_PATH);
    await insertAll(store, 'other', [{ id: 'o1', host: { name: 'h1' } }], ValueIndex.EVERY_PATH);
  });
  afterEach(() => db.close());

  it('declaring fewer paths rebuilds nothing: the extra rows are never consulted', async () => {
    const declared = ValueIndex.of(['source', 'timestamp']);
    expect(await store.adoptValueIndex('event', declared)).toBe(false);
    expect(setting()).toBe('["source","timestamp"]');
    expect(paths()).toEqual(['host', 'host.name', 'source', 'timestamp']);
    expect(await hostH1(declared)).toEqual(expectedH1);
    expect(await store.adoptValueIndex('event', declared)).toBe(false);
  });

  it('declaring a path the rows were not written for rebuilds the family, and only it', async () => {
    await store.adoptValueIndex('event', ValueIndex.of(['source', 'timestamp']));
    await insertAll(store, 'event', [{ id: 'late', source: 's1', host: { name: 'h1' } }], ValueIndex.of(['source', 'timestamp']));

    const wider = ValueIndex.of(['source', 'host.name']);
    expect(await store.adoptValueIndex('event', wider)).toBe(true);
    expect(setting()).toBe('["host.name","source"]');
    expect(paths()).toEqual(['host.name', 'source']);
    // The record written under the narrower declaration is found through SQL now too.
    expect(await hostH1(wider)).toEqual([...expectedH1, 'late']);
    expect(db.prepare(`SELECT COUNT(*) FROM ${NAMED_VALUE_ROWS} WHERE family = 'other'`).pluck().get()).toBe(2);

    expect(await store.adoptValueIndex('event', ValueIndex.EVERY_PATH)).toBe(true);
    expect(paths()).toEqual(['host', 'host.name', 'source', 'timestamp']);
    expect(setting()).toBe('*');
  });
});

/** A path id without a query is one lookup by (family, id) (selection-plan's recordById). */
describe('reading by path id (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;

  beforeAll(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await insertAll(store, 'event', [{ id: 'x1' }, { id: 'x2' }]);
    await insertAll(store, 'other', [{ id: 'x3' }]);
  });
  afterAll(() => db.close());

  it('finds the record of its own family only', async () => {
    expect(await readIds(store, { family: 'event', id: 'x2' })).toEqual(['x2']);
    expect(await readIds(store, { family: 'event', id: 'x3' })).toEqual([]);
    expect(await readIds(store, { family: 'event', id: 'nope' })).toEqual([]);
  });

  it('obeys the window: from 0 keeps it, a later start or an empty count answers nothing', async () => {
    expect(await readIds(store, { family: 'event', id: 'x1', offset: 0, count: 5 })).toEqual(['x1']);
    expect(await readIds(store, { family: 'event', id: 'x1', offset: 1, count: 5 })).toEqual([]);
    expect(await readIds(store, { family: 'event', id: 'x1', offset: 0, count: 0 })).toEqual([]);
  });
});

/** A lookup by (family, id) reads at its hinted sequence number first (SeqHints), and never trusts it. */
describe('reading by path id through a hint (SQLite)', () => {
  let file: string;
  let db: Database.Database;
  let hints: SeqHints;
  let store: SqliteRecordStore;
  const seqOf = (family: string, id: string) =>
    db.prepare('SELECT seq FROM inventory_record WHERE family = ? AND id = ?').pluck().get(family, id) as number | undefined;
  const readDocs = async (family: string, id: string) =>
    (await readAll(store, { family, id, order: [], offset: 0, valueIndex: ValueIndex.EVERY_PATH })).docs;

  beforeEach(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'seq-hints-')), 'store.sqlite');
    db = createDatabase(file);
    hints = new SeqHints();
    store = new SqliteRecordStore(db, hints);
    await insertAll(store, 'event', [
      { id: 'x1', n: 1 },
      { id: 'x2', n: 2 },
    ]);
    await insertAll(store, 'other', [{ id: 'x1', n: 3 }]);
  });
  afterEach(() => {
    db.close();
    rmSync(dirname(file), { recursive: true, force: true });
  });

  it('a write hints each record it inserts', () => {
    expect(hints.get('event', 'x1')).toBe(seqOf('event', 'x1'));
    expect(hints.get('other', 'x1')).toBe(seqOf('other', 'x1'));
  });

  it('a hint at another record, of this family or another, answers the record of the key', async () => {
    hints.set('event', 'x1', seqOf('event', 'x2')!);
    expect(await readDocs('event', 'x1')).toEqual([{ id: 'x1', n: 1 }]);
    hints.set('event', 'x1', seqOf('other', 'x1')!);
    expect(await readDocs('event', 'x1')).toEqual([{ id: 'x1', n: 1 }]);
    // The index's answer replaced the wrong hint.
    expect(hints.get('event', 'x1')).toBe(seqOf('event', 'x1'));
  });

  it('a record another connection deleted and wrote again is read where it now is', async () => {
    const before = seqOf('event', 'x2');
    const other = new Database(file);
    other.prepare("DELETE FROM inventory_record WHERE family = 'event' AND id = 'x2'").run();
    other.prepare(`INSERT INTO inventory_record (family, id, doc) VALUES ('event', 'x2', '{"id":"x2","n":20}')`).run();
    other.close();
    expect(hints.get('event', 'x2')).toBe(before);
    expect(await readDocs('event', 'x2')).toEqual([{ id: 'x2', n: 20 }]);
    expect(hints.get('event', 'x2')).toBe(seqOf('event', 'x2'));
    expect(seqOf('event', 'x2')).not.toBe(before);
  });

  it('a record deleted answers nothing though its hint stays', async () => {
    await store.delete({ family: 'event', id: 'x1', order: [], offset: 0, valueIndex: ValueIndex.EVERY_PATH });
    expect(hints.get('event', 'x1')).toBeDefined();
    expect(await readDocs('event', 'x1')).toEqual([]);
  });

  it('a record written by another connection is found by the index and hinted from then on', async () => {
    const other = new Database(file);
    other.prepare(`INSERT INTO inventory_record (family, id, doc) VALUES ('event', 'x9', '{"id":"x9"}')`).run();
    other.close();
    expect(hints.get('event', 'x9')).toBeUndefined();
    expect(await readDocs('event', 'x9')).toEqual([{ id: 'x9' }]);
    expect(hints.get('event', 'x9')).toBe(seqOf('event', 'x9'));
  });
});
