import Database from 'better-sqlite3';
import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { RecordSelection } from './record-selection';
import { READ_PAGE_SIZE } from './record-store';
import { sqliteDialect } from './sql-dialect';
import { SqliteRecordStore } from './sqlite-record.store';
import { Clause, createDatabase, eq, expectedWindow, insertBetween, op, readPlanned } from './store.fixtures';
import { ValueIndex } from './value-index';

/**
 * An equality on one value read in arrival order is one statement (`equalityRows` in
 * selection-plan.ts), here SQLite's; PostgreSQL's plans are checked in
 * postgres-index.e2e-spec.ts. `few` matches 5 records, `many` more than a page; `tags` lists `a`
 * twice in every record; `n` is a number, `b` a boolean. Another family's records are
 * interleaved.
 */
const COUNT = READ_PAGE_SIZE + 200;
const DOCS: JsonObject[] = Array.from({ length: COUNT }, (_, i) => ({
  id: `r${i}`,
  few: i % 240 === 7 ? 'yes' : 'no',
  many: 'all',
  tags: ['a', `t${i % 3}`, 'a'],
  pair: i % 240 === 7 ? ['p', 'p'] : [],
  n: i % 100,
  b: i % 2 === 0,
}));
const OTHER: JsonObject[] = Array.from({ length: 300 }, (_, i) => ({ id: `o${i}`, few: 'yes', n: 7 }));

describe('an equality on one value, read in arrival order (SQLite)', () => {
  let db: Database.Database;

  beforeAll(async () => {
    db = createDatabase();
    await insertBetween(new SqliteRecordStore(db), 'eq', DOCS, OTHER);
  });
  afterAll(() => db.close());

  const expected = (query: Clause): string[] => expectedWindow(DOCS, query);
  const read = (query: Clause) => readPlanned(db, 'eq', query);
  const isProbe = (sql: string) => sql.includes('ORDER BY v.seq LIMIT');

  it.each<[string, Clause, number]>([
    ['a text matching a few records', { where: eq('few', 'yes') }, 5],
    ['a text with a window', { where: eq('few', 'yes'), limit: { from: 1, to: 3 } }, 3],
    ['a number', { where: eq('n', 42), limit: { from: 2, to: 9 } }, 8],
    ['a boolean', { where: eq('b', true), limit: { from: 0, to: 4 } }, 5],
    ['a text the number holds', { where: eq('n', '42'), limit: { from: 0, to: 4 } }, 5],
    ['a value listed twice in a few records, once per record', { where: eq('pair', 'p') }, 5],
    ['the first of many', { where: eq('many', 'all'), limit: { from: 0, to: 0 } }, 1],
    ['a window that ends past a page', { where: eq('n', 42), limit: { from: 5, to: 1100 } }, 7],
    ['`in` of one value', { where: { in: { target: 'few', expr: ['yes'] } } }, 5],
  ])('%s: one statement answers, in arrival order', (_label, query, answered) => {
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(ids).toHaveLength(answered);
    expect(run.map((statement) => isProbe(statement.sql))).toEqual([true]);
  });

  it.each<[string, Clause]>([
    ['text', eq('few', 'yes')],
    ['number', eq('n', 42)],
    ['boolean', eq('b', true)],
  ])('sorts nothing for a %s: the index gives its records in arrival order', (_label, where) => {
    const parsed = parseRecordQuery({ where }, { allowSelect: false });
    const statement = new RecordSelection({ family: 'eq', valueIndex: ValueIndex.EVERY_PATH, ...parsed }, sqliteDialect).equalityRows(16)!;
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.params) as { detail: string }[]).map(
      (row) => row.detail,
    );
    expect(plan.join(' | ')).toMatch(/USING (COVERING )?INDEX inventory_value_(text|num) /);
    expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
  });

  it('reads a window of a value listed twice in every record as before, after the probe', () => {
    const query = { where: eq('tags', 'a'), limit: { from: 10, to: 29 } };
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(ids).toHaveLength(20);
    expect(run.map((statement) => isProbe(statement.sql))).toEqual([true, ...run.slice(1).map(() => false)]);
    expect(run.length).toBeGreaterThan(1);
  });

  it('reads up to the window only, its limit rounded up to a power of two', () => {
    const { run } = read({ where: eq('many', 'all'), limit: { from: 3, to: 12 } });
    expect(run.map((statement) => statement.rows)).toEqual([16]);
  });

  it('reads more than a page of matches as before, after the probe', () => {
    const query = { where: eq('many', 'all') };
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(ids).toHaveLength(COUNT);
    expect(run[0].rows).toBe(READ_PAGE_SIZE + 1);
    expect(run.slice(1).some((statement) => isProbe(statement.sql))).toBe(false);
  });

  it.each<[string, Clause]>([
    ['an `in` of two values', { where: { in: { target: 'few', expr: ['yes', 'maybe'] } } }],
    ['a range', { where: op('gt', 'n', 97) }],
    ['null', { where: eq('missing', null) }],
    ['an `and`', { where: { and: [eq('few', 'yes'), eq('b', false)] } }],
  ])('is not used for %s', (_label, query) => {
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(run.some((statement) => isProbe(statement.sql))).toBe(false);
  });

  it('is not used for a read in another order', () => {
    const query = { where: eq('few', 'yes'), order: [{ target: 'n', mode: 'desc' }] };
    const { ids, run } = read(query);
    expect(ids).toEqual(['r487', 'r967', 'r247', 'r727', 'r7']);
    expect(run.some((statement) => isProbe(statement.sql))).toBe(false);
  });
});
