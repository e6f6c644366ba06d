import Database from 'better-sqlite3';
import { QueryAbortedError, QueryBudget, QueryTimeoutError } from '../core/query/query-budget';
import { LearnedValueIndex } from './learned-index';
import { RecordSelection } from './record-selection';
import { SqliteRecordStore } from './sqlite-record.store';
import { sqliteDialect } from './sql-dialect';
import { createDatabase, eq, insertAll, NAMED_VALUE_ROWS, parseWhere, readIds } from './store.fixtures';
import { MAX_LEARNED_PATHS, ValueIndex } from './value-index';

/** Paths learned from queries (LearnedValueIndex over SQLite): learned, built, used, kept, capped, exact throughout. */
describe('learned value index paths (SQLite)', () => {
  let file: string;
  let db: Database.Database;
  let store: SqliteRecordStore;
  const declared = ValueIndex.of(['source']);
  const docs = Array.from({ length: 1300 }, (_, i) => ({
    id: `e${i}`,
    source: `s${i % 10}`,
    severity: i % 100 === 7 ? 'critical' : 'info',
    payload: { proto: i % 2 ? 'tcp' : 'udp' },
  }));
  const critical = docs.filter((doc) => doc.severity === 'critical').map((doc) => doc.id);
  const rows = (path: string) =>
    db.prepare(`SELECT COUNT(*) FROM ${NAMED_VALUE_ROWS} WHERE family = 'event' AND path = ?`).pluck().get(path);
  const where = (path: string, value: string) => parseWhere(eq(path, value));
  /** Whether SQL decides the condition on `path` under `index` (no in-memory re-check). */
  const sqlDecides = (index: ValueIndex, path: string) =>
    new RecordSelection({ family: 'event', valueIndex: index, where: where(path, 'x'), order: [], offset: 0 }, sqliteDialect).residual ===
    undefined;

  beforeEach(async () => {
    file = `/tmp/learned-index-${process.pid}-${Date.now()}.db`;
    db = createDatabase(file);
    store = new SqliteRecordStore(db);
    await store.adoptValueIndex('event', declared);
    await insertAll(store, 'event', docs, declared);
  });
  afterEach(() => db.close());

  it('a query on an undeclared path learns it: answers stay exact while its rows are built, then SQL uses them', async () => {
    const learned = new LearnedValueIndex(store, 'event', declared);
    await learned.start();
    const first = await learned.forQuery(where('severity', 'critical'), []);
    // Not built yet: the index does not cover it, the evaluator answers.
    expect(sqlDecides(first, 'severity')).toBe(false);
    expect(learned.paths.building).toEqual(['severity']);
    expect(await readIds(store, { family: 'event', valueIndex: first, where: where('severity', 'critical') })).toEqual(critical);
    // A write during the build indexes the new path at once.
    await insertAll(store, 'event', [{ id: 'late', severity: 'critical' }], declared);
    await learned.settled();
    expect(learned.paths).toEqual({ building: [], ready: ['severity'] });
    const after = await learned.forQuery(where('severity', 'critical'), []);
    expect(sqlDecides(after, 'severity')).toBe(true);
    expect(rows('severity')).toBe(docs.length + 1);
    expect(await readIds(store, { family: 'event', valueIndex: after, where: where('severity', 'critical') })).toEqual([
      ...critical,
      'late',
    ]);
  });

  it('an update during the build leaves one row per value, from the new document', async () => {
    const learned = new LearnedValueIndex(store, 'event', declared);
    await learned.forQuery(where('severity', 'critical'), []);
    await store.update('event', ['e8'], () => ({ doc: { id: 'e8', source: 's8', severity: 'critical' } }), declared);
    await learned.settled();
    const index = await learned.forQuery(where('severity', 'critical'), []);
    expect(rows('severity')).toBe(docs.length);
    expect(await readIds(store, { family: 'event', valueIndex: index, where: where('severity', 'critical') })).toEqual(
      ['e7', 'e8', ...critical.slice(1)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
    );
  });

  describe('a query that waits for the builds of the paths it names (whenBuilt, as the service asks)', () => {
    // Builds take their slices one after another, process-wide: one still held would hold the next tests'.
    let release = () => {};
    afterEach(() => release());

    /** Holds every build page of `store` until `open` is called: a build that outlasts a budget. */
    const holdBuilds = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      release = open;
      const buildPage = store.buildLearnedRows.bind(store);
      store.buildLearnedRows = async (...page) => {
        await opened;
        return buildPage(...page);
      };
      return open;
    };

    it('gets the index with the path built: SQL decides it, without scanning in memory', async () => {
      const learned = new LearnedValueIndex(store, 'event', declared);
      await learned.start();
      const index = await learned.whenBuilt(where('severity', 'critical'), [], new QueryBudget(60_000));
      expect(learned.paths).toEqual({ building: [], ready: ['severity'] });
      expect(sqlDecides(index, 'severity')).toBe(true);
      expect(await readIds(store, { family: 'event', valueIndex: index, where: where('severity', 'critical') })).toEqual(critical);
    });

    it("out of time before the build ends, it stops with the budget's error, and the build goes on for the next query", async () => {
      const open = holdBuilds();
      const learned = new LearnedValueIndex(store, 'event', declared);
      await expect(learned.whenBuilt(where('severity', 'critical'), [], new QueryBudget(30))).rejects.toBeInstanceOf(QueryTimeoutError);
      expect(learned.paths.building).toEqual(['severity']);
      open();
      const index = await learned.whenBuilt(where('severity', 'critical'), [], new QueryBudget(60_000));
      expect(sqlDecides(index, 'severity')).toBe(true);
      expect(rows('severity')).toBe(docs.length);
    });

    it('stops at once when its client goes away', async () => {
      const open = holdBuilds();
      const learned = new LearnedValueIndex(store, 'event', declared);
      const client = new AbortController();
      const waiting = learned.whenBuilt(where('severity', 'critical'), [], new QueryBudget(60_000, client.signal));
      setTimeout(() => client.abort(), 10);
      await expect(waiting).rejects.toBeInstanceOf(QueryAbortedError);
      open();
      await learned.settled();
      expect(learned.paths.ready).toEqual(['severity']);
    });

    it('waits for nothing when the query names only paths the index holds', async () => {
      const open = holdBuilds();
      const learned = new LearnedValueIndex(store, 'event', declared);
      await learned.whenBuilt(where('severity', 'x'), [], new QueryBudget(30)).catch(() => undefined);
      // `severity` is still building (held); a query on `source` alone does not wait for it.
      expect(await learned.whenBuilt(where('source', 's1'), [], new QueryBudget(30))).toBe(learned.current);
      open();
      await learned.settled();
    });
  });

  it('a build transaction is one page when its slice is spent, and runs on through further pages while it lasts', async () => {
    const lastSeq = await store.lastSeq('event');
    // 1,300 records: pages of 500.
    const spent = await store.buildLearnedRows('event', 'severity', 0, lastSeq, 500, 0);
    expect(rows('severity')).toBe(500);
    const rest = await store.buildLearnedRows('event', 'severity', spent!, lastSeq, 500, 60_000);
    expect(rest).toBe(lastSeq);
    expect(rows('severity')).toBe(docs.length);
    expect(await store.buildLearnedRows('event', 'severity', rest!, lastSeq, 500, 60_000)).toBeUndefined();
  });

  it("a page replaces the path's rows of its own family's records only, nested paths included, though seqs of another family lie between them", async () => {
    const otherIndex = ValueIndex.of(['severity']);
    const withLevel = (id: string) => ({ id, severity: { level: id } });
    // Seqs are shared by all families: 'other' records sit between the events of the page.
    await insertAll(store, 'other', [withLevel('o1'), withLevel('o2')], otherIndex);
    await insertAll(store, 'event', [withLevel('e-late')], declared);
    await insertAll(store, 'other', [withLevel('o3')], otherIndex);
    // Rows the event path already has (as a write after the path was learned leaves them).
    await insertAll(store, 'event', [withLevel('e-indexed')], ValueIndex.of(['source', 'severity']));
    const otherRows = () =>
      db.prepare(`SELECT COUNT(*) FROM ${NAMED_VALUE_ROWS} WHERE family = 'other' AND path LIKE 'severity%'`).pluck().get();
    const before = otherRows();
    expect(before).toBe(6);
    const lastSeq = await store.lastSeq('event');
    expect(await store.buildLearnedRows('event', 'severity', 0, lastSeq, 10_000, 60_000)).toBe(lastSeq);
    expect(otherRows()).toBe(before);
    // One row for the object and one for its field, per event that holds one: none twice.
    expect(rows('severity')).toBe(docs.length + 2);
    expect(rows('severity.level')).toBe(2);
  });

  it('survives a restart: a new process reads it, ready, and neither drops nor rebuilds it at start-up', async () => {
    const learned = new LearnedValueIndex(store, 'event', declared);
    await learned.forQuery(where('payload.proto', 'tcp'), []);
    await learned.settled();
    db.close();
    db = new Database(file);
    store = new SqliteRecordStore(db);
    expect(await store.adoptValueIndex('event', declared)).toBe(false);
    const again = new LearnedValueIndex(store, 'event', declared);
    await again.start();
    expect(again.paths.ready).toEqual(['payload.proto']);
    expect(sqlDecides(again.current, 'payload.proto')).toBe(true);
    expect(rows('payload.proto')).toBe(docs.length);
  });

  it('another process learns of a path before planning a query on it', async () => {
    const one = new LearnedValueIndex(store, 'event', declared);
    const other = new LearnedValueIndex(new SqliteRecordStore(new Database(file)), 'event', declared);
    await other.start();
    await one.forQuery(where('severity', 'x'), []);
    await one.settled();
    expect(sqlDecides(await other.forQuery(where('severity', 'x'), []), 'severity')).toBe(true);
    expect(other.paths.ready).toEqual(['severity']);
  });

  it('a build a stopped process left is finished at the next start', async () => {
    expect((await store.learnPath('event', 'severity', MAX_LEARNED_PATHS)).building).toEqual(['severity']);
    const learned = new LearnedValueIndex(store, 'event', declared);
    await learned.start();
    await learned.settled();
    expect(learned.paths.ready).toEqual(['severity']);
    expect(rows('severity')).toBe(docs.length);
  });

  it('is capped: past the cap a path is not learned and the evaluator answers', async () => {
    const learned = new LearnedValueIndex(store, 'event', declared, 2);
    await learned.forQuery(where('a', 'x'), []);
    await learned.forQuery(where('b', 'x'), [{ path: ['c'], direction: 'asc' } as never]);
    await learned.settled();
    expect(learned.paths.ready).toEqual(['a', 'b']);
    const index = await learned.forQuery(where('severity', 'critical'), []);
    expect(sqlDecides(index, 'severity')).toBe(false);
    expect(rows('severity')).toBe(0);
    expect(await readIds(store, { family: 'event', valueIndex: index, where: where('severity', 'critical') })).toEqual(critical);
  });

  it('learns no record id, reserved name or over-long path', async () => {
    const learned = new LearnedValueIndex(store, 'event', declared);
    await learned.forQuery(
      parseWhere({ and: [eq('id', 'e1'), eq('constructor', 'x'), eq(Array.from({ length: 3 }, () => 'x'.repeat(100)).join('.'), 'y')] }),
      [],
    );
    expect(learned.paths).toEqual({ building: [], ready: [] });
  });
});

describe('learned paths and regular expressions', () => {
  it('a path named only by reg_exp is learned: the plan matches its distinct values', async () => {
    const db = createDatabase();
    const store = new SqliteRecordStore(db);
    const learned = new LearnedValueIndex(store, 'event', ValueIndex.of(['source']));
    await learned.forQuery(parseWhere({ reg_exp: { target: 'text', expr: 'a.*' } }), []);
    await learned.settled();
    expect(learned.paths).toEqual({ building: [], ready: ['text'] });
    db.close();
  });
});
