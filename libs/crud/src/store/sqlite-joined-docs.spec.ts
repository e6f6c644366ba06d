import Database from 'better-sqlite3';
import { QueryBudget, QueryTimeoutError } from '../core/query/query-budget';
import { JsonObject } from '../core/query/query.types';
import { JoinedRecords, joinedRecordsOf, READ_PAGE_SIZE } from './record-store';
import { RecordSelection, SelectionSpec } from './record-selection';
import { selectionPlan } from './selection-plan';
import { readSelectionNow } from './selection-reader';
import { sqliteDialect } from './sql-dialect';
import { joinedDocsSql } from './sqlite-joined-docs';
import { SqliteRecordStore } from './sqlite-record.store';
import { createDatabase, eq, insertAll, parseWhere, readAll, statementsOn } from './store.fixtures';
import { ValueIndex } from './value-index';

describe('joinedRecordsOf', () => {
  it('counts the records of sequence numbers that rise strictly, and keeps their documents as they are', () => {
    expect(joinedRecordsOf('3', '{"id":"a"}')).toEqual(new JoinedRecords(1, '{"id":"a"}'));
    expect(joinedRecordsOf('3,7,12', '{"id":"a"},{"id":"b"},{"id":"c"}')).toEqual(new JoinedRecords(3, '{"id":"a"},{"id":"b"},{"id":"c"}'));
  });

  it('answers no records for the NULLs of an aggregate over none', () => {
    expect(joinedRecordsOf(null, null)).toEqual(new JoinedRecords(0, ''));
  });

  it('refuses a record twice, an order other than arrival order, or more than a page', () => {
    expect(joinedRecordsOf('3,3', '{},{}')).toBe('not in arrival order');
    expect(joinedRecordsOf('3,7,5', '{},{},{}')).toBe('not in arrival order');
    const seqs = Array.from({ length: READ_PAGE_SIZE + 1 }, (_, k) => k + 1);
    expect(joinedRecordsOf(seqs.join(','), seqs.map(() => '{}').join(','))).toBe('over a page');
    expect(joinedRecordsOf(seqs.slice(0, READ_PAGE_SIZE).join(','), '')).toEqual(new JoinedRecords(READ_PAGE_SIZE, ''));
  });

  it('wraps the statement of records it is given', () => {
    expect(joinedDocsSql('SELECT r.seq, r.id, r.doc FROM inventory_record r')).toBe(
      "SELECT group_concat(seq), group_concat(doc, ',') FROM (SELECT r.seq, r.id, r.doc FROM inventory_record r)",
    );
  });
});

/** `SqliteRecordStore.readWhole` against the same store's page-by-page read. */
describe('reading an equality whole (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  const index = ValueIndex.of(['source', 'tags']);
  const spec = (where: Parameters<typeof eq>, rest: Partial<SelectionSpec> = {}): SelectionSpec => ({
    family: 'event',
    valueIndex: index,
    where: parseWhere(eq(...where)),
    order: [],
    offset: 0,
    ...rest,
  });
  const pagedDocs = async (selection: SelectionSpec) => (await readAll(store, selection)).docs;
  /** What `readWhole` answered: its text parsed, or its pages' documents. */
  const whole = async (selection: SelectionSpec): Promise<{ joined: boolean; docs: JsonObject[] }> => {
    const records = await store.readWhole(selection);
    if (records instanceof JoinedRecords) {
      const docs = records.count === 0 ? [] : (JSON.parse(`[${records.docs}]`) as JsonObject[]);
      expect(docs).toHaveLength(records.count);
      return { joined: true, docs };
    }
    const docs: JsonObject[] = [];
    for await (const page of records) docs.push(...page.map((row) => JSON.parse(row.doc) as JsonObject));
    return { joined: false, docs };
  };

  beforeEach(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    const events = Array.from({ length: 1200 }, (_, k) => ({ id: `e${k}`, source: k < 1005 ? 'busy' : `s${k % 7}`, tags: ['t'] }));
    // Another family between the events, so that the family's sequence numbers have gaps.
    await insertAll(store, 'event', events.slice(0, 600), index);
    await insertAll(store, 'other', [{ id: 'o1', source: 's3' }], index);
    await insertAll(store, 'event', events.slice(600), index);
  });
  afterEach(() => db.close());

  it('answers the matches of one value joined, in arrival order, as the paged read does', async () => {
    const docs = await pagedDocs(spec(['source', 's3']));
    expect(docs.length).toBeGreaterThan(20);
    expect(await whole(spec(['source', 's3']))).toEqual({ joined: true, docs });
  });

  it('answers none joined for a value nobody holds', async () => {
    expect(await store.readWhole(spec(['source', 'nobody']))).toEqual(new JoinedRecords(0, ''));
  });

  it('reads more than a page of matches page by page', async () => {
    const answer = await whole(spec(['source', 'busy']));
    expect(answer.joined).toBe(false);
    expect(answer.docs).toEqual(await pagedDocs(spec(['source', 'busy'])));
    expect(answer.docs).toHaveLength(1005);
  });

  it('does not ask again for the page and one that its own statement found too many', async () => {
    const equalityStatement = new RecordSelection(spec(['source', 'busy']), sqliteDialect).equalityRows(READ_PAGE_SIZE + 1)!.sql;
    const asked: string[] = [];
    const internals = store as unknown as { all(fragment: { sql: string }): unknown };
    const all = internals.all.bind(store);
    internals.all = (fragment) => {
      asked.push(fragment.sql);
      return all(fragment);
    };
    expect((await whole(spec(['source', 'busy']))).docs).toHaveLength(1005);
    expect(asked.filter((sql) => sql === equalityStatement)).toHaveLength(0);
    expect(await pagedDocs(spec(['source', 'busy']))).toHaveLength(1005);
    expect(asked.filter((sql) => sql === equalityStatement)).toHaveLength(1);
  });

  it('reads a record that lists the value twice page by page, which answers it once', async () => {
    await insertAll(
      store,
      'event',
      [
        { id: 'twice', source: 'x', tags: ['dup', 'dup'] },
        { id: 'once', tags: ['dup'] },
      ],
      index,
    );
    const answer = await whole(spec(['tags', 'dup']));
    expect(answer.joined).toBe(false);
    expect(answer.docs.map((doc) => doc.id)).toEqual(['twice', 'once']);
  });

  it('reads windows, orders, path ids, paths outside the index and other queries page by page', async () => {
    const others: SelectionSpec[] = [
      spec(['source', 's3'], { offset: 1 }),
      spec(['source', 's3'], { count: 5 }),
      spec(['source', 's3'], { order: [{ path: ['id'], descending: true }] }),
      spec(['source', 's3'], { id: 'e1011' }),
      spec(['id', 'e1011']),
      { family: 'event', valueIndex: index, order: [], offset: 0 },
    ];
    for (const selection of others) {
      const answer = await whole(selection);
      expect(answer.joined).toBe(false);
      expect(answer.docs).toEqual(await pagedDocs(selection));
      expect(answer.docs.length).toBeGreaterThan(0);
    }
  });

  it('stops with the budget before its statement', async () => {
    await expect(store.readWhole(spec(['source', 's3'], { budget: new QueryBudget(0) }))).rejects.toBeInstanceOf(QueryTimeoutError);
  });

  it('a plan told that the equality found more than a page reads its candidates without asking again', () => {
    const selection = new RecordSelection(spec(['source', 'busy']), sqliteDialect);
    selection.equalityOverAPage = true;
    const queries = statementsOn(db);
    const rows = [...readSelectionNow(selectionPlan(selection, 'read'), queries)].flat();
    expect(rows).toHaveLength(1005);
    expect(queries.run.some((statement) => statement.sql === selection.equalityRows(READ_PAGE_SIZE + 1)!.sql)).toBe(false);

    const asked = statementsOn(db);
    expect(
      [...readSelectionNow(selectionPlan(new RecordSelection(spec(['source', 'busy']), sqliteDialect), 'read'), asked)].flat(),
    ).toHaveLength(1005);
    expect(asked.run.some((statement) => statement.sql === selection.equalityRows(READ_PAGE_SIZE + 1)!.sql)).toBe(true);
  });
});
