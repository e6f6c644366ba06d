import Database from 'better-sqlite3';
import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { BROAD_LEAF, WALK_LIMIT, WALK_STEP } from './first-in-arrival-order';
import { SqliteRecordStore } from './sqlite-record.store';
import { Clause, createDatabase, eq, expectedWindow, insertBetween, op, readPlanned } from './store.fixtures';

/**
 * More records than a walk may cover, so that a broad leaf whose matches come late must give up
 * walking. `n` grows with arrival (a range on it matches a tail of the family), `m` cycles (a
 * range on it matches everywhere), `late` is set only on the last records, `tags` lists one
 * value twice, and another family's records are interleaved with these.
 */
const COUNT = WALK_LIMIT + 3 * WALK_STEP;
const DOCS: JsonObject[] = Array.from({ length: COUNT }, (_, i) => ({
  id: `r${i}`,
  n: i,
  m: i % 100,
  tags: ['a', 'a', `t${i % 3}`],
  ...(i >= COUNT - BROAD_LEAF - 10 ? { late: `x${i % 10}` } : {}),
}));
const OTHER: JsonObject[] = Array.from({ length: 3_000 }, (_, i) => ({ id: `o${i}`, n: i, m: i % 100 }));

describe('the first records of one broad leaf in arrival order (SQLite)', () => {
  let db: Database.Database;

  beforeAll(async () => {
    db = createDatabase();
    await insertBetween(new SqliteRecordStore(db), 'walk', DOCS, OTHER);
  });
  afterAll(() => db.close());

  const expected = (query: Clause): string[] => expectedWindow(DOCS, query);

  /** The plan's answer, and the statements it ran. */
  const read = (query: Clause) => readPlanned(db, 'walk', query);
  const walked = (run: { sql: string }[]) => run.filter((statement) => statement.sql.includes('r.seq >= ?')).length;
  const looked = (run: { sql: string }[]) => run.filter((statement) => statement.sql.includes('LIMIT ?) AS r WHERE')).length;
  /** A `not` whose window is not among the records the look covers. */
  const NOT_AT_THE_START = { where: { not: op('lt', 'n', 20_000) }, limit: { from: 10, to: 29 } };
  const sortedAll = (run: { sql: string }[]) => run.some((statement) => statement.sql.startsWith('SELECT DISTINCT seq'));

  it.each<[string, Clause]>([
    ['a range matching nearly every record', { where: op('gt', 'n', 5), limit: { from: 0, to: 9 } }],
    ['a range matching everywhere, a window further on', { where: op('lt', 'm', 30), limit: { from: 200, to: 224 } }],
    // With one value an equality is read in one statement (equality-rows.spec.ts): a second, absent value keeps it here.
    [
      'a common value listed twice in each record',
      { where: { in: { target: 'tags', expr: ['a', 'absent'] } }, limit: { from: 3, to: 12 } },
    ],
    [
      'an `in` of a text and a number, both common',
      { where: { in: { target: 'm', expr: ['1', '2', 3, 4, 5, 6] } }, limit: { from: 0, to: 49 } },
    ],
  ])('%s: one look at the first records of the family finds the window', (_label, query) => {
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    // The look, then the window's rows. Before: the leaf's first BROAD_LEAF + 1 matches, then
    // the walk's bounds and its first step.
    const { offset } = parseRecordQuery(query, { allowSelect: false });
    expect(run.map((statement) => statement.rows)).toEqual([offset + ids.length, ids.length]);
    expect(looked(run.slice(0, 1))).toBe(1);
  });

  it.each<[string, Clause]>([
    ['a range matching from the 1,000th record on', { where: op('gt', 'n', 1_000), limit: { from: 0, to: 9 } }],
    ['a range matching from the 6,000th record on, a window further on', { where: op('gt', 'n', 6_000), limit: { from: 200, to: 224 } }],
  ])('%s: past the first look, walks the family in arrival order and stops at the window', (_label, query) => {
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(walked(run)).toBe(1);
    expect(sortedAll(run)).toBe(false);
    // Before: the leaf's one statement returned every match (up to ~90k sequence numbers).
    expect(Math.max(...run.map((statement) => statement.rows))).toBeLessThanOrEqual(BROAD_LEAF + 1);
  });

  it('a window past the matches of the first steps walks on until it is full', () => {
    const query = { where: op('gte', 'n', WALK_STEP * 2 + 5), limit: { from: 0, to: 9 } };
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(walked(run)).toBe(3);
  });

  it('matches that only come after the walk limit are sorted instead, exactly', () => {
    const query = { where: { exists: { target: 'late' } }, limit: { from: 1, to: 20 } };
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(walked(run)).toBe(WALK_LIMIT / WALK_STEP);
    expect(sortedAll(run)).toBe(true);
  });

  it('a leaf with few matches is read once and sorted, with no walk', () => {
    const query = { where: op('gte', 'n', COUNT - 40), limit: { from: 5, to: 14 } };
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(walked(run)).toBe(0);
    expect(sortedAll(run)).toBe(false);
  });

  it.each<[string, Clause]>([
    ['an equality matching a third', { where: { not: eq('tags', 't1') }, limit: { from: 0, to: 9 } }],
    ["a range matching the family's start", NOT_AT_THE_START],
    ['an id range', { where: { not: op('lt', 'id', 'r2') }, limit: { from: 0, to: 9 } }],
    ['a leaf with few matches', { where: { not: op('lt', 'n', 40) }, limit: { from: 0, to: 9 } }],
    ['a leaf with no match', { where: { not: eq('late', 'nobody') }, limit: { from: 5, to: 14 } }],
  ])('`not` of %s: looks at the first records, then walks the family, for the records it does not let through', (_label, query) => {
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(looked(run)).toBe(1);
    // Past the first records only when the window is not among them.
    expect(walked(run) > 0).toBe(query === NOT_AT_THE_START);
    // Before: the leaf's one statement returned every match, to be taken out of the family.
    expect(Math.max(...run.map((statement) => statement.rows))).toBeLessThanOrEqual(30);
    // Nor are its matches probed first (a statement cut by a LIMIT, other than the look and the walk's steps).
    expect(run.filter((statement) => statement.sql.includes('LIMIT ?') && !looked([statement]) && !walked([statement]))).toEqual([]);
  });

  it('`not` of a leaf that lets nearly every record through gives up the walk, exactly', () => {
    const query = { where: { not: op('lt', 'n', COUNT - 5) }, limit: { from: 1, to: 20 } };
    const { ids, run } = read(query);
    expect(ids).toEqual(expected(query));
    expect(walked(run)).toBe(WALK_LIMIT / WALK_STEP);
  });

  it('a window larger than the matches answers them all', () => {
    const query = { where: op('gte', 'n', COUNT - BROAD_LEAF - 100), limit: { from: 0, to: BROAD_LEAF + 500 } };
    expect(read(query).ids).toEqual(expected(query));
  });
});
