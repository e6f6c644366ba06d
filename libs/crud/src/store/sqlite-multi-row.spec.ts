import Database from 'better-sqlite3';
import { JsonObject } from '../core/query/query.types';
import { NewRecord } from './record-store';
import { INSERT_RECORDS, INSERT_VALUES, MOST_ROWS_PER_STATEMENT, MultiRowInsert, rowCounts } from './sqlite-multi-row';
import { SqliteRecordStore } from './sqlite-record.store';
import { createDatabase, eq, NAMED_VALUE_ROWS, parseWhere, readAll, readIds } from './store.fixtures';
import { ValueIndex } from './value-index';

describe('rowCounts', () => {
  it.each([0, 1, 2, 3, 63, 64, 65, 127, 150, 1000])('splits %i rows into powers of two, none above the most, largest first', (total) => {
    const counts = rowCounts(total);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(total);
    for (const count of counts) {
      expect(count & (count - 1)).toBe(0);
      expect(count).toBeLessThanOrEqual(MOST_ROWS_PER_STATEMENT);
    }
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    // At most one statement of each size below the most: the texts a shape needs stay few.
    const below = counts.filter((count) => count < MOST_ROWS_PER_STATEMENT);
    expect(new Set(below).size).toBe(below.length);
  });
});

describe('MultiRowInsert', () => {
  it('writes one placeholder group per row, and gives the same string for a count each time', () => {
    const insert = new MultiRowInsert('INSERT INTO t (a, b)', 2, ' RETURNING a');
    expect(insert.sql(3)).toBe('INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?) RETURNING a');
    expect(insert.sql(3)).toBe(insert.sql(3));
    expect(insert.sql(1)).toBe('INSERT INTO t (a, b) VALUES (?, ?) RETURNING a');
  });
});

/**
 * A statement that may abort halfway keeps a statement journal: inside a transaction SQLite copies
 * every page it touches there first. The store's statements FAIL instead, which leaves the rows
 * already written to the transaction around them — and that transaction is always rolled back
 * when a write fails (SqliteGroupCommit) — so they need none. Keeping earlier rows is what tells.
 */
describe('multi-row statements without a statement journal', () => {
  let db: Database.Database;
  beforeEach(() => (db = createDatabase()));
  afterEach(() => db.close());

  /** Two value rows, the second without its path key (NOT NULL). */
  const VALUE_ROWS = [1, 1, 's', 'a', null, 1, null, 's', 'b', null];
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();

  function keptAfterFailure(sql: string, params: unknown[]): { kept: unknown; afterRollback: unknown; table: string } {
    const table = /INTO (\w+)/.exec(sql)![1];
    db.exec('BEGIN');
    expect(() => db.prepare(sql).run(...params)).toThrow(/NOT NULL constraint failed/);
    const kept = count(table);
    db.exec('ROLLBACK');
    return { kept, afterRollback: count(table), table };
  }

  it('a value row that fails leaves the rows before it to the transaction, which rolls them back', () => {
    expect(keptAfterFailure(INSERT_VALUES.sql(2), VALUE_ROWS)).toEqual({ kept: 1, afterRollback: 0, table: 'inventory_value' });
  });

  it('a record that fails leaves the records before it to the transaction, which rolls them back', () => {
    const params = ['event', 'a', '{}', 'event', 'b', null];
    expect(keptAfterFailure(INSERT_RECORDS.sql(2), params)).toEqual({ kept: 1, afterRollback: 0, table: 'inventory_record' });
  });

  it('(the same rows in a statement that aborts are backed out by the statement itself, from its journal)', () => {
    const aborting = INSERT_VALUES.sql(2).replace('INSERT OR FAIL INTO', 'INSERT INTO');
    expect(aborting).not.toBe(INSERT_VALUES.sql(2));
    expect(keptAfterFailure(aborting, VALUE_ROWS)).toEqual({ kept: 0, afterRollback: 0, table: 'inventory_value' });
  });
});

/** A batch goes in as multi-row statements; what it answers and stores must be what one row at a time gave. */
describe('inserting a batch in multi-row statements (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  const INDEX = ValueIndex.of(['source', 'tags']);
  const event = (i: number): JsonObject => ({ id: `e${i}`, source: `s${i % 7}`, tags: [`t${i % 3}`, 'all'], n: i });

  beforeEach(() => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
  });
  afterEach(() => db.close());

  it('answers each record in order across statements: a stored id and a repeated one are duplicates, the first of a pair is written', async () => {
    await store.insert('event', [{ id: 'e5', doc: { id: 'e5', source: 'stored' } }], INDEX);
    const docs = Array.from({ length: 150 }, (_, i) => event(i));
    // e70 again at position 100 (another statement than its first), e141 twice in a row.
    docs[100] = { ...event(70), source: 'second' };
    docs[142] = { ...event(141), source: 'second' };
    const outcomes = await store.insert(
      'event',
      docs.map((doc) => ({ id: doc.id as string, doc })),
      INDEX,
    );
    const duplicates = [5, 100, 142];
    expect(outcomes).toEqual(docs.map((_, i) => (duplicates.includes(i) ? 'duplicate' : 'inserted')));

    const stored = await readAll(store, { family: 'event', order: [], offset: 0, valueIndex: INDEX });
    const written = docs.filter((_, i) => !duplicates.includes(i));
    // Stored in batch order (after the earlier e5), each with its own document.
    expect(stored.ids).toEqual(['e5', ...written.map((doc) => doc.id)]);
    expect(stored.docs.slice(1)).toEqual(written);
    expect(stored.docs[0]).toEqual({ id: 'e5', source: 'stored' });

    // Each written record has its own value rows, under its own seq, and none are left over.
    const rows = db
      .prepare(
        `SELECT r.id, v.path, v.text FROM ${NAMED_VALUE_ROWS} v JOIN inventory_record r ON r.seq = v.seq WHERE v.family = 'event' ORDER BY v.seq, v.path, v.text`,
      )
      .all() as { id: string; path: string; text: string }[];
    const expected = [{ id: 'e5', path: 'source', text: 'stored' }];
    for (const doc of written) {
      const tags = [...(doc.tags as string[])].sort();
      expected.push(...tags.map((tag) => ({ id: doc.id as string, path: 'tags', text: tag })));
      expected.push({ id: doc.id as string, path: 'source', text: doc.source as string });
    }
    const order = (list: typeof rows) =>
      [...list].sort((a, b) => `${a.id}/${a.path}/${a.text}`.localeCompare(`${b.id}/${b.path}/${b.text}`));
    expect(order(rows)).toEqual(order(expected));
    expect(await readIds(store, { family: 'event', valueIndex: INDEX, where: parseWhere(eq('source', 'second')) })).toEqual([]);

    // Sent again, every statement writes nothing: all duplicates, and no value row is added.
    const again = await store.insert(
      'event',
      written.map((doc) => ({ id: doc.id as string, doc: { ...doc, source: 'third' } })),
      INDEX,
    );
    expect(again).toEqual(written.map(() => 'duplicate'));
    expect(db.prepare('SELECT count(*) FROM inventory_value').pluck().get()).toBe(rows.length);
  });

  it('writes a record that requires another only after the records before it, which it may require', async () => {
    const records: NewRecord[] = [
      { id: 'a', doc: { id: 'a', source: 'x' } },
      { id: 'b', doc: { id: 'b', source: 'x' }, requires: [{ family: 'event', id: 'a' }] },
      { id: 'c', doc: { id: 'c', source: 'x' }, requires: [{ family: 'event', id: 'd' }] },
      { id: 'd', doc: { id: 'd', source: 'x' } },
      { id: 'e', doc: { id: 'e', source: 'x' }, requires: [{ family: 'event', id: 'd' }] },
      { id: 'b', doc: { id: 'b', source: 'y' } },
    ];
    const outcomes = await store.insert('event', records, INDEX);
    expect(outcomes).toEqual(['inserted', 'inserted', { missing: [{ family: 'event', id: 'd' }] }, 'inserted', 'inserted', 'duplicate']);
    expect(await readIds(store, { family: 'event', valueIndex: INDEX, where: parseWhere(eq('source', 'x')) })).toEqual([
      'a',
      'b',
      'd',
      'e',
    ]);
  });
});
