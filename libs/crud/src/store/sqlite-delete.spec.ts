import Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { QueryBudget, QueryTimeoutError } from '../core/query/query-budget';
import { JsonObject } from '../core/query/query.types';
import { SelectionSpec } from './record-selection';
import { SqliteRecordStore } from './sqlite-record.store';
import { createDatabase, insertAll, op, parseWhere, readIds, temporaryDatabaseFile } from './store.fixtures';
import { ValueIndex } from './value-index';

/**
 * A SQLite delete finds its matches outside the transaction, pausing like a read, and deletes
 * them in one transaction afterwards. Whatever changes in between, what it deletes must be what
 * the query matches when the transaction runs, as if it had all happened inside it.
 */
const FAMILY = 'thing';
const COUNT = 3000; // three pages: the scan pauses between them
const docs: JsonObject[] = Array.from({ length: COUNT }, (_, i) => ({
  id: `t${String(i).padStart(4, '0')}`,
  tag: i % 3 === 0 ? 'old' : 'keep',
}));

describe('delete on SQLite, with writes while it looks', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;

  beforeEach(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await insertAll(store, FAMILY, docs, ValueIndex.of([]));
  });
  afterEach(() => db.close());

  // `tag` is not indexed, so the evaluator decides on every record and the scan spans pages.
  const spec = (budget?: QueryBudget): SelectionSpec => ({
    family: FAMILY,
    valueIndex: ValueIndex.of([]),
    where: parseWhere(op('reg_exp', 'tag', 'ol.')),
    order: [],
    offset: 0,
    budget,
  });
  const retag = (id: string, tag: string) =>
    store.update(FAMILY, [id], (_index, current) => ({ doc: { ...current!, tag } }), ValueIndex.of([]));
  const expected = (except: string[], plus: string[]) =>
    docs.filter((doc) => (doc.tag === 'old' && !except.includes(doc.id as string)) || plus.includes(doc.id as string)).map((doc) => doc.id);

  it('deletes exactly the matches when nothing changes meanwhile', async () => {
    expect(await store.delete(spec())).toEqual(expected([], []));
    expect(await readIds(store, { family: FAMILY, valueIndex: ValueIndex.of([]), where: parseWhere(op('reg_exp', 'tag', 'ol.')) })).toEqual(
      [],
    );
  });

  it('spares a match updated away, and takes a record updated into matching, while it scanned', async () => {
    const deleting = store.delete(spec());
    await nextTurn();
    await Promise.all([retag('t0000', 'kept'), retag('t2999', 'old'), retag('t1500', 'old')]);
    const deleted = await deleting;
    expect(deleted).toEqual(expected(['t0000'], ['t1500', 't2999']).sort());
    expect(await readIds(store, { family: FAMILY, valueIndex: ValueIndex.of([]), id: 't0000' })).toEqual(['t0000']);
  });

  it('notices writes of another connection (another process) too', async () => {
    const { file, remove } = temporaryDatabaseFile('inventory-delete-');
    const shared = createDatabase(file);
    const onFile = new SqliteRecordStore(shared);
    await insertAll(onFile, FAMILY, docs, ValueIndex.of([]));
    const other = new Database(file);
    try {
      const deleting = onFile.delete(spec());
      await nextTurn();
      other.prepare("UPDATE inventory_record SET doc = json_set(doc, '$.tag', 'kept') WHERE family = ? AND id = ?").run(FAMILY, 't0000');
      const deleted = await deleting;
      expect(deleted).toEqual(expected(['t0000'], []));
    } finally {
      other.close();
      shared.close();
      remove();
    }
  });

  it('stops with the budget, deleting nothing', async () => {
    await expect(store.delete(spec(new QueryBudget(0)))).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(await readIds(store, { family: FAMILY, valueIndex: ValueIndex.of([]) })).toHaveLength(COUNT);
  });
});
