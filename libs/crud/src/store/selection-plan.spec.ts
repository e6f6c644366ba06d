import Database from 'better-sqlite3';
import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { RecordSelection, SelectionSpec } from './record-selection';
import { PlanAnswer, PlanStep, selectionPlan } from './selection-plan';
import { READ_PAGE_SIZE } from './record-store';
import { readSelection, readSelectionNow } from './selection-reader';
import { postgresDialect, sqliteDialect } from './sql-dialect';
import { SqliteRecordStore } from './sqlite-record.store';
import { Clause, createDatabase, insertAll, op, readIds, statementsOn } from './store.fixtures';
import { ValueIndex } from './value-index';

/**
 * Ordering by a path the value index does not hold happens in memory, in passes of bounded
 * size. With a tiny pass size, results span many passes and pages; they must equal what SQL
 * orders from a complete index, window for window.
 */
const DOCS: JsonObject[] = Array.from({ length: 2600 }, (_, i) => {
  const doc: JsonObject = { id: `k${String(i).padStart(4, '0')}`, i, group: i % 7, s: `v${(i * 7919) % 2600}` };
  if (i % 5 === 0) doc.mixed = `t${i % 3}`;
  else if (i % 5 === 1) doc.mixed = i % 11;
  else if (i % 5 === 2) doc.mixed = [i % 13, `u${i % 4}`];
  if (i % 3 === 0) doc.host = { name: `host-${i % 17}` };
  return doc;
});

describe('order in memory, in passes (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  let queries: ReturnType<typeof statementsOn>;

  beforeAll(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await insertAll(store, 'bulk', DOCS);
    queries = statementsOn(db);
  });
  afterAll(() => db.close());

  const spec = (query: Clause, valueIndex: ValueIndex): SelectionSpec => ({
    family: 'bulk',
    valueIndex,
    ...parseRecordQuery(query, { allowSelect: false }),
  });
  const inMemory = (query: Clause, passSize: number) => {
    const selection = new RecordSelection(spec(query, ValueIndex.of(['i'])), sqliteDialect);
    expect(selection.orderInSql).toBe(false);
    return [...readSelectionNow(selectionPlan(selection, 'read', passSize), queries)].flat().map((row) => row.id);
  };
  // SQLite sorts by one value path in SQL (see `SqlDialect.sqlOrderTerms`); the reference here
  // sorts by all of them in SQL, as PostgreSQL does.
  const bySql = async (query: Clause) => {
    const selection = new RecordSelection(spec(query, ValueIndex.EVERY_PATH), { ...sqliteDialect, sqlOrderTerms: 16 });
    expect(selection.orderInSql).toBe(true);
    return [...readSelectionNow(selectionPlan(selection, 'read'), queries)].flat().map((row) => row.id);
  };

  const ORDERS: Clause[][] = [
    [{ target: 'mixed', mode: 'asc' }],
    [{ target: 'mixed', mode: 'desc' }],
    [
      { target: 'group', mode: 'desc' },
      { target: 's', mode: 'asc' },
    ],
    [{ target: 'host.name' }, { target: 'id', mode: 'desc' }],
    [{ target: 'i', mode: 'desc' }, { target: 'group' }],
  ];
  const WINDOWS: (Clause | undefined)[] = [
    undefined,
    { from: 0, to: 9 },
    { from: 995, to: 1014 },
    { from: 2590, to: 2700 },
    { from: 3000, to: 3001 },
  ];
  const WHERES: (Clause | undefined)[] = [undefined, op('gt', 'group', 3), { not: op('reg_exp', 's', 'v1.*') }];

  // Each pass scans every candidate again, so tiny passes get tiny windows.
  it('answers as SQL does with passes of one record', async () => {
    for (const order of ORDERS) {
      const query: Clause = { order, limit: { from: 5, to: 14 }, where: op('gt', 'group', 3) };
      expect({ query, ids: inMemory(query, 1) }).toEqual({ query, ids: await bySql(query) });
    }
  });

  it.each([250, 100_000])('answers as SQL does with passes of %i', async (passSize) => {
    for (const order of ORDERS) {
      for (const limit of WINDOWS) {
        for (const where of WHERES) {
          const query: Clause = { order, ...(limit && { limit }), ...(where && { where }) };
          expect({ query, ids: inMemory(query, passSize) }).toEqual({ query, ids: await bySql(query) });
        }
      }
    }
  });

  it('reads through the store the same way, pausing between pages so other requests get in', async () => {
    const query: Clause = { order: [{ target: 'mixed', mode: 'desc' }], where: op('lt', 'group', 5) };
    const selection = new RecordSelection(spec(query, ValueIndex.of([])), sqliteDialect);
    let pauses = 0;
    const ids: string[] = [];
    for await (const page of readSelection(selectionPlan(selection, 'read'), { ...queries, betweenPages: async () => pauses++ })) {
      ids.push(...page.map((row) => row.id));
    }
    expect(ids).toEqual(await bySql(query));
    expect(pauses).toBeGreaterThanOrEqual(2);
    expect(await readIds(store, spec(query, ValueIndex.of([])))).toEqual(ids);
  });

  it('deletes in the order and window SQL would', async () => {
    const query: Clause = { order: [{ target: 'mixed', mode: 'asc' }], where: op('gt', 'group', 4), limit: { from: 3, to: 1200 } };
    const expected = await bySql(query);
    expect(await store.delete(spec(query, ValueIndex.of([])))).toEqual(expected);
    expect(await bySql(query)).toEqual([]);
  });
});

/**
 * A filtered read that SQL decides alone asks for its rows in one statement when they fit in a
 * page (on PostgreSQL, one round trip instead of two); a larger result is read from its
 * candidates taken up front, as before.
 */
describe('a filtered read of a page or less (PostgreSQL plan)', () => {
  // Ordered by id: in arrival order, a window takes the leaf's first matches instead (below).
  const spec = (count?: number): SelectionSpec => {
    const limit = count === undefined ? {} : { limit: { from: 0, to: count - 1 } };
    const { select: _select, ...query } = parseRecordQuery(
      { where: { equals: { target: 'source', expr: '10.0.0.1' } }, order: [{ target: 'id', mode: 'asc' }], ...limit },
      { allowSelect: false },
    );
    return { family: 'event', valueIndex: ValueIndex.of(['source']), ...query };
  };
  const row = (seq: number) => ({ seq, id: `e${seq}`, doc: '{}' });
  /** Drives the plan, answering its first `rows` statement with `found` rows, and lists the steps. */
  const steps = (selectionSpec: SelectionSpec, found: number) => {
    const plan = selectionPlan(new RecordSelection(selectionSpec, postgresDialect), 'read');
    const kinds: string[] = [];
    const pages: number[] = [];
    let answer: PlanAnswer;
    for (let step = plan.next(); !step.done; step = plan.next(answer)) {
      answer = undefined;
      const current = step.value;
      kinds.push(current.kind);
      if (current.kind === 'rows') {
        const rowsAsked = current.sql.params.length;
        answer = kinds.filter((kind) => kind === 'rows').length === 1 ? Array.from({ length: found }, (_, i) => row(i + 1)) : [];
        expect(rowsAsked).toBeGreaterThan(0);
      }
      if (current.kind === 'seqs') answer = Array.from({ length: found }, (_, i) => i + 1);
      if (current.kind === 'page') pages.push(current.rows.length);
    }
    return { kinds, pages };
  };

  it('a result of a page or less: one statement for its rows, nothing else', () => {
    expect(steps(spec(), 10)).toEqual({ kinds: ['rows', 'page'], pages: [10] });
    expect(steps(spec(), READ_PAGE_SIZE)).toEqual({ kinds: ['rows', 'page'], pages: [READ_PAGE_SIZE] });
    expect(steps(spec(), 0)).toEqual({ kinds: ['rows'], pages: [] });
  });

  it('asks for one row more than a page, or for the count when that is smaller', () => {
    const limits: unknown[] = [];
    for (const count of [undefined, 5]) {
      const plan = selectionPlan(new RecordSelection(spec(count), postgresDialect), 'read');
      const first = plan.next().value as Extract<PlanStep, { kind: 'rows' }>;
      limits.push(first.sql.params.at(-2));
      expect(first.sql.sql).toMatch(/ LIMIT \? OFFSET \?$/);
    }
    expect(limits).toEqual([READ_PAGE_SIZE + 1, 5]);
  });

  it('a larger result: the candidates up front, then their rows a page at a time', () => {
    const { kinds } = steps(spec(), READ_PAGE_SIZE + 1);
    expect(kinds.slice(0, 3)).toEqual(['rows', 'seqs', 'rows']);
    expect(kinds.filter((kind) => kind === 'rows')).toHaveLength(3);
  });

  it('`not` of a leaf with a window in arrival order: the first records it does not let through, then their rows', () => {
    const { select: _select, ...query } = parseRecordQuery(
      { where: { not: { equals: { target: 'source', expr: '10.0.0.1' } } }, limit: { from: 0, to: 9 } },
      { allowSelect: false },
    );
    const selection = new RecordSelection({ family: 'event', valueIndex: ValueIndex.of(['source']), ...query }, postgresDialect);
    const look = selectionPlan(selection, 'read').next().value as Extract<PlanStep, { kind: 'seqAtOffset' | 'seqs' }>;
    expect(look.kind).toBe('seqs');
    expect(look.sql.sql).toContain('AS r WHERE NOT (');
    // Before: one statement, in which PostgreSQL hashed every match of the leaf (NOT IN).
    const { kinds, pages } = steps({ family: 'event', valueIndex: ValueIndex.of(['source']), ...query }, 10);
    expect(kinds).toEqual(['seqs', 'rows', 'page']);
    expect(pages).toEqual([10]);
  });

  it('a window in arrival order: a look at the first records, the leaf counted, its first matches, then their rows', () => {
    const { select: _select, ...query } = parseRecordQuery(
      { where: { gt: { target: 'source', expr: '10.0.0.1' } }, limit: { from: 2, to: 6 } },
      { allowSelect: false },
    );
    const { kinds, pages } = steps({ family: 'event', valueIndex: ValueIndex.of(['source']), ...query }, 30);
    expect(kinds).toEqual(['seqs', 'seqs', 'seqs', 'rows', 'page']);
    expect(pages).toEqual([5]);
  });

  // Before: the three statements above and the rows, 5.7-6.0 ms a read of 100 of 10k events.
  it('an equality on one value with a window in arrival order: one statement of its rows, up to the window', () => {
    const { select: _select, ...query } = parseRecordQuery(
      { where: { equals: { target: 'source', expr: '10.0.0.1' } }, limit: { from: 2, to: 6 } },
      { allowSelect: false },
    );
    const selection = new RecordSelection({ family: 'event', valueIndex: ValueIndex.of(['source']), ...query }, postgresDialect);
    const first = selectionPlan(selection, 'read').next().value as Extract<PlanStep, { kind: 'rows' }>;
    expect(first.sql.sql).toMatch(/ORDER BY v\.seq LIMIT 8$/);
    expect(first.sql.shareable).toBe(true);
    const { kinds, pages } = steps({ family: 'event', valueIndex: ValueIndex.of(['source']), ...query }, 8);
    expect(kinds).toEqual(['rows', 'page']);
    expect(pages).toEqual([5]);
  });
});

describe('a page in the middle of a read with no filter (SQLite)', () => {
  let db: Database.Database;
  beforeAll(async () => {
    db = createDatabase();
    const store = new SqliteRecordStore(db);
    // Another family's records between these, so that the offset counts this family's alone.
    for (let start = 0; start < 3_000; start += 500) {
      await insertAll(
        store,
        'paged',
        Array.from({ length: 500 }, (_, i) => ({ id: `p${start + i}` })),
      );
      await insertAll(
        store,
        'other',
        Array.from({ length: 100 }, (_, i) => ({ id: `o${start + i}` })),
      );
    }
  });
  afterAll(() => db.close());

  it.each([
    [0, 10],
    [1_234, 10],
    [2_995, 10],
    [3_000, 10],
    [1_500, 1_500],
  ])('from %d, %d records: the offset is found in the index, then the page is read from there', (offset, count) => {
    const queries = statementsOn(db);
    const selection = new RecordSelection({ family: 'paged', valueIndex: ValueIndex.EVERY_PATH, order: [], offset, count }, sqliteDialect);
    const ids = [...readSelectionNow(selectionPlan(selection, 'read'), queries)].flat().map((row) => row.id);
    expect(ids).toEqual(Array.from({ length: Math.max(0, Math.min(count, 3_000 - offset)) }, (_, i) => `p${offset + i}`));
    // Before: the first page's statement skipped the offset's records itself, reading each.
    const found = queries.run.filter((statement) => statement.sql.includes('ORDER BY r.seq LIMIT 1 OFFSET ?'));
    expect(found).toHaveLength(offset > 0 ? 1 : 0);
  });
});
