import Database from 'better-sqlite3';
import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { SelectionSpec } from './record-selection';
import { JoinedRecords } from './record-store';
import { SqliteRecordStore } from './sqlite-record.store';
import { ValueIndex } from './value-index';
import { compileWhere, compileWhereTree } from './where-compiler';
import { postgresDialect, sqliteDialect, toPostgresPlaceholders } from './sql-dialect';
import {
  Clause,
  createDatabase,
  eq,
  expectedIds,
  FAMILY,
  insertAll,
  NAMED_VALUE_ROWS,
  op,
  parseWhere,
  QUERIES,
  readAll,
  readIds as readIdsFrom,
  RECORDS,
} from './store.fixtures';

/**
 * Agreement: what SQL (plus the residual evaluator) selects must be exactly what the reference
 * evaluator accepts, in arrival order, for every query shape the parser lets through, and
 * whichever paths the family's value index holds.
 */
const EVERY = ValueIndex.EVERY_PATH;
const SOME = ValueIndex.of(['name', 'config', 'tags', 'actions.id', 'nested.deep', 'n']);
const NONE = ValueIndex.of([]);
const INDEXINGS: [string, { written: (position: number) => ValueIndex; read: ValueIndex }][] = [
  ['every path indexed', { written: () => EVERY, read: EVERY }],
  ['some paths declared', { written: () => SOME, read: SOME }],
  ['no path declared', { written: () => NONE, read: NONE }],
  // A database from before the declaration: every path has rows for the first half only.
  [
    'some paths declared, earlier records indexed on every path',
    { written: (position) => (position < RECORDS.length / 2 ? EVERY : SOME), read: SOME },
  ],
];

describe.each(INDEXINGS)('where compiler agrees with the reference evaluator (SQLite, %s)', (_indexing, { written, read }) => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  const readIds = (spec: Partial<SelectionSpec> & { family: string }) => readIdsFrom(store, { valueIndex: read, ...spec });

  beforeAll(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    // Another family with overlapping ids and values: must never leak into results.
    await insertAll(store, 'other', [
      { id: 'a1', name: 'alpha', n: 5, tags: ['x'] },
      { id: 'zz', name: 'beta', flag: true },
    ]);
    const inserted: boolean[] = [];
    for (const [position, doc] of RECORDS.entries()) inserted.push(...(await insertAll(store, FAMILY, [doc], written(position))));
    expect(inserted).toEqual(RECORDS.map(() => true));
  });

  afterAll(() => db.close());

  it('stores every record intact and reads them all in arrival order', async () => {
    const { ids, docs } = await readAll(store, { family: FAMILY, valueIndex: read, order: [], offset: 0 });
    expect(ids).toEqual(RECORDS.map((record) => record.id));
    expect(docs).toEqual(RECORDS);
  });

  it('the query table is large and every query is meaningful', () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(60);
    // A table whose queries all match nothing (or everything) would agree trivially.
    const sizes = QUERIES.map(([, where]) => expectedIds(RECORDS, parseWhere(where)).length);
    expect(sizes.filter((size) => size > 0 && size < RECORDS.length).length).toBeGreaterThan(QUERIES.length * 0.8);
  });

  it.each(QUERIES)('%s', async (_name, where) => {
    const condition = parseWhere(where);
    const expected = expectedIds(RECORDS, condition);
    const actual = await readIds({ family: FAMILY, where: condition });
    expect(actual).toEqual(expected);
  });

  /** Every query read whole answers as read page by page does; some are answered joined. */
  const joinedAnswers: string[] = [];
  it.each(QUERIES)('%s, read whole', async (name, where) => {
    const spec: SelectionSpec = { family: FAMILY, valueIndex: read, where: parseWhere(where), order: [], offset: 0 };
    const records = await store.readWhole(spec);
    const { docs } = await readAll(store, spec);
    if (!(records instanceof JoinedRecords)) {
      const paged: JsonObject[] = [];
      for await (const page of records) paged.push(...page.map((row) => JSON.parse(row.doc) as JsonObject));
      expect(paged).toEqual(docs);
      return;
    }
    joinedAnswers.push(name);
    expect(records.count).toBe(docs.length);
    expect(records.count === 0 ? [] : (JSON.parse(`[${records.docs}]`) as JsonObject[])).toEqual(docs);
  });

  it('answers joined the equalities on one value that SQL decides, and no other query', () => {
    const equalities = QUERIES.filter(([, where]) => 'equals' in where || 'in' in where).map(([name]) => name);
    if (read === NONE) expect(joinedAnswers).toEqual([]);
    else expect(joinedAnswers.length).toBeGreaterThan(10);
    for (const name of joinedAnswers) expect(equalities).toContain(name);
  });

  it('pins a few answers literally (the evaluator itself is right, not only consistent)', async () => {
    const ids = (where: Clause) => readIds({ family: FAMILY, where: parseWhere(where) });
    expect(await ids(eq('n', '5'))).toEqual(['a1', 'a2', 'd1', 'e3']);
    expect(await ids(eq('n', 5))).toEqual(['a1', 'd1', 'e3']);
    expect(await ids(eq('flag', 'true'))).toEqual(['a2', 'a4', 'd8']);
    expect(await ids(eq('config', { cmd: 'run', port: 8080 }))).toEqual(['a1']);
    expect(await ids(eq('actions.id', 'start'))).toEqual(['a1', 'b1']);
    expect(await ids({ exists: { target: 'tags' } })).toEqual(['a1', 'a5', 'b2', 'b3', 'd8', 'g2']);
    expect(await ids(op('wildcard', 'name', '???'))).toEqual(['g1']);
    expect(await ids(op('wildcard', 'name', 'x*'))).toEqual(['g1', 'g2']);
    expect(await ids(op('wildcard', 'tags', '?'))).toEqual(['a1', 'b2', 'b3', 'g2']);
    expect(await ids(op('wildcard', 'tags', ''))).toEqual([]);
    expect(await ids(op('wildcard', 'name', '*[1]'))).toEqual(['a5']);
    expect(await ids(op('wildcard', 'name', 'it%s'))).toEqual(['f1']);
    expect(await ids(op('wildcard', 'n', 'x_y'))).toEqual(['f1']);
    expect(await ids(eq('a.b', 1))).toEqual(['c2']);
    expect(await ids(op('lt', 'ts', '2024-01-01'))).toEqual(['b6']);
    expect(await ids(eq('list', []))).toEqual(['c6']);
    expect(await ids(eq('tags', [null]))).toEqual(['b4']);
    // Code-point order (UTF-8 byte order): an astral character sorts after U+FF01.
    expect(await ids(op('gt', 'n', '\uFF00'))).toEqual(['c8', 'c9']);
  });

  it('a path {id} is ANDed with the query', async () => {
    expect(await readIds({ family: FAMILY, id: 'a1' })).toEqual(['a1']);
    expect(await readIds({ family: FAMILY, id: 'a1', where: parseWhere(eq('name', 'alpha')) })).toEqual(['a1']);
    expect(await readIds({ family: FAMILY, id: 'a2', where: parseWhere(eq('name', 'alpha')) })).toEqual([]);
    expect(await readIds({ family: FAMILY, id: 'a1', where: parseWhere(op('reg_exp', 'name', 'al.*')) })).toEqual(['a1']);
    expect(await readIds({ family: FAMILY, id: 'nope' })).toEqual([]);
    expect(await readIds({ family: 'other', id: 'a1', where: parseWhere(eq('name', 'alpha')) })).toEqual(['a1']);
  });

  describe('limit windows', () => {
    const cases: [string, Clause | undefined][] = [
      ['no where', undefined],
      ['exact SQL where', { exists: { target: 'n' } }],
      ['residual where', op('reg_exp', 'name', '.*a.*')],
      ['residual mixed with SQL', { or: [op('reg_exp', 'name', '.*a.*'), op('gt', 'n', 5)] }],
    ];
    const windows: [number, number | undefined][] = [
      [0, 1],
      [0, 3],
      [2, 3],
      [1, undefined],
      [5, 100],
      [100, 5],
      [0, 0],
    ];
    for (const [name, where] of cases) {
      it(`${name}: every window is the matching slice`, async () => {
        const condition = where ? parseWhere(where) : undefined;
        const all = condition ? expectedIds(RECORDS, condition) : RECORDS.map((record) => record.id as string);
        for (const [offset, count] of windows) {
          const ids = await readIds({ family: FAMILY, where: condition, offset, count });
          const expected = count === undefined ? all.slice(offset) : all.slice(offset, offset + count);
          expect({ offset, count, ids }).toEqual({ offset, count, ids: expected });
        }
      });
    }

    it('limit parsed from the query ({from, to} inclusive) selects that window', async () => {
      const query = parseRecordQuery({ where: op('reg_exp', 'name', '.*a.*'), limit: { from: 1, to: 3 } }, { allowSelect: true });
      const all = expectedIds(RECORDS, query.where!);
      const ids = await readIds({ family: FAMILY, where: query.where, offset: query.offset, count: query.count });
      expect(ids).toEqual(all.slice(1, 4));
      expect(ids).toHaveLength(3);
    });
  });
});

describe('compiled SQL', () => {
  it('compiled SQL binds every value as a parameter', () => {
    const condition = parseWhere({
      or: [eq('name', "x' OR 1=1 --"), op('wildcard', 'note', "*'*"), op('gt', "we'ird", 'a')],
    });
    for (const dialect of [sqliteDialect, postgresDialect]) {
      const compiled = compileWhere(condition, "fam'ily", ValueIndex.EVERY_PATH, dialect);
      expect(compiled.sql).not.toContain("'ily");
      expect(compiled.sql).not.toContain('OR 1=1');
      expect(compiled.sql).not.toContain("we'ird");
      expect(compiled.params).toEqual(expect.arrayContaining(["x' OR 1=1 --", "fam'ily", "we'ird"]));
      expect(compiled.exact).toBe(true);
      expect(compiled.sql.split('?').length - 1).toBe(compiled.params.length);
    }
    const pg = compileWhere(condition, 'f', ValueIndex.EVERY_PATH, postgresDialect);
    expect(toPostgresPlaceholders(pg.sql)).toContain(`$${pg.params.length}`);
    expect(toPostgresPlaceholders(pg.sql)).not.toContain('?');
  });

  it('postgres wildcard escapes LIKE metacharacters', () => {
    expect(postgresDialect.wildcard('r.id', '50%_*?\\').params[0]).toBe('50\\%\\_%_\\\\');
    // On the value index, the prefix's range first (the index holds each text's first 200
    // characters), in the index's form: U+0001 is escaped as two characters.
    const onValues = postgresDialect.wildcard('v.text', 'a\u0001b*c');
    expect(onValues.params).toEqual([
      'a\u0001\u0002b',
      'a\u0001\u0002b',
      'a\u0001\u0002c',
      'a\u0001\u0002c',
      'a\u0001\u0002b%c',
      expect.any(String),
    ]);
    expect(onValues.sql).toMatch(
      /^\(\(left\(v\.text, 200\) >= left\(\?, 200\) AND v\.text >= \?\) AND \(left\(v\.text, 200\) <= left\(\?, 200\) AND v\.text < \?\) AND \(CASE/,
    );
    expect(postgresDialect.wildcard('v.text', '*b').params).toHaveLength(2);
    // SQLite: the literal prefix's range (for the index), GLOB's pattern, and the pattern itself
    // for text holding NUL, which GLOB cannot read to its end.
    expect(sqliteDialect.wildcard('v.text', 'a[b]*').params).toEqual(['a[b]', 'a[b^', 'a[[]b]*', 'a[b]*']);
  });

  it('narrows a reg_exp to the texts holding what every match holds, as each database spells it', () => {
    const candidatesOf = (pattern: string, dialect: typeof sqliteDialect) => {
      const { tree } = compileWhereTree(parseWhere(op('reg_exp', 'name', pattern)), ValueIndex.EVERY_PATH, dialect);
      if (tree.kind !== 'pattern') throw new Error(`not a pattern leaf: ${tree.kind}`);
      return tree.candidates;
    };
    expect(candidatesOf('.*-00012[0-9]', sqliteDialect)).toEqual({
      sql: '(v.text IS NOT NULL AND instr(v.text, ?) > 0)',
      params: ['-00012'],
    });
    expect(candidatesOf('(?:alpha|bravo).*\u0000', postgresDialect)).toEqual({
      sql: '(v.text IS NOT NULL AND ((strpos(v.text, ?) > 0 OR strpos(v.text, ?) > 0) AND strpos(v.text, ?) > 0))',
      params: ['alpha', 'bravo', '\u0001\u0001'],
    });
    // The prefix's range already holds its own text.
    expect(candidatesOf('ab.*ab', sqliteDialect)).toEqual({ sql: 'v.text >= ? AND v.text < ?', params: ['ab', 'ac'] });
    expect(candidatesOf('.*', sqliteDialect)).toEqual({ sql: 'v.text IS NOT NULL', params: [] });
  });

  it('marks object equality as inexact; reg_exp on an indexed path is exact (the plan decides it); plain operators are exact', () => {
    expect(compileWhere(parseWhere(eq('config', { a: 1 })), FAMILY, ValueIndex.EVERY_PATH, sqliteDialect).exact).toBe(false);
    expect(compileWhereTree(parseWhere(op('reg_exp', 'name', 'a.*')), ValueIndex.EVERY_PATH, sqliteDialect)).toEqual({
      tree: {
        kind: 'pattern',
        path: 'name',
        pattern: 'a.*',
        candidates: expect.objectContaining({ sql: expect.stringContaining('v.text >= ?') }),
      },
      exact: true,
    });
    expect(compileWhere(parseWhere({ not: op('reg_exp', 'name', 'a') }), FAMILY, ValueIndex.EVERY_PATH, sqliteDialect).exact).toBe(true);
    expect(compileWhereTree(parseWhere(op('reg_exp', 'name', 'a.*')), ValueIndex.of(['source']), sqliteDialect)).toEqual({
      tree: { kind: 'all' },
      exact: false,
    });
    expect(compileWhere(parseWhere(eq('name', 'a')), FAMILY, ValueIndex.EVERY_PATH, sqliteDialect).exact).toBe(true);
    expect(compileWhere(parseWhere({ not: op('in', 'n', [1, 'a', true, null]) }), FAMILY, ValueIndex.EVERY_PATH, sqliteDialect).exact).toBe(
      true,
    );
  });

  describe('paths the value index does not hold', () => {
    const index = ValueIndex.of(['source', 'host.name']);
    const compile = (where: Clause) => compileWhere(parseWhere(where), FAMILY, index, sqliteDialect);

    it.each([
      ['equals', eq('host.ip', '10.0.0.1')],
      ['in', op('in', 'severity', [1, 2])],
      ['exists', { exists: { target: 'host' } }],
      ['range', op('gt', 'n', 5)],
      ['wildcard', op('wildcard', 'note', 'a*')],
      ['not', { not: eq('n', 5) }],
      ['not exists', { not: { exists: { target: 'n' } } }],
    ])('%s restricts nothing and leaves the answer to the evaluator', (_name, where) => {
      expect(compile(where)).toEqual({ sql: '1=1', params: [], exact: false });
    });

    it('declared paths and their descendants still compile to the index', () => {
      for (const where of [
        eq('source', 'a'),
        eq('host.name', 'h'),
        { exists: { target: 'host.name.first' } },
        { not: eq('source', 'a') },
      ]) {
        const compiled = compile(where);
        expect(compiled.exact).toBe(true);
        expect(compiled.sql).toContain('inventory_value');
      }
    });

    it('an and keeps the restriction of its declared part', () => {
      const compiled = compile({ and: [eq('source', 'a'), eq('n', 5)] });
      expect(compiled.exact).toBe(false);
      expect(compiled.sql).not.toContain('1=1');
      expect(compiled.params).toEqual([FAMILY, 'source', 'a']);
    });

    it('an or with an undeclared part, and not of it, restrict nothing', () => {
      expect(compile({ or: [eq('source', 'a'), eq('n', 5)] })).toEqual({ sql: '1=1', params: [], exact: false });
      // NOT of a superset is not a superset: the whole negation goes to the evaluator.
      expect(compile({ not: { or: [eq('source', 'a'), eq('n', 5)] } })).toEqual({ sql: '1=1', params: [], exact: false });
      expect(compile({ not: { and: [eq('source', 'a'), eq('n', 5)] } })).toEqual({ sql: '1=1', params: [], exact: false });
    });
  });
});

// SQL orders from the value index; a path the index does not hold is ordered in memory, and the
// answers must be the same ones.
const ORDER_INDEXINGS: [string, ValueIndex][] = [
  ['SQL order', EVERY],
  ['order in memory', NONE],
  ['score in SQL, name in memory', ValueIndex.of(['score'])],
];

describe.each(ORDER_INDEXINGS)('order (SQLite, %s)', (_indexing, valueIndex) => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  const docs: JsonObject[] = [
    { id: 'r1', score: 10, name: 'delta' },
    { id: 'r2', score: 2, name: 'Bravo' },
    { id: 'r3', name: 'alpha' },
    { id: 'r4', score: -1 },
    { id: 'r5', score: 2.5, name: 'charlie' },
    { id: 'r6', score: 100, name: 'alpha' },
    { id: 'r7', other: 1 },
    { id: 'r8', score: [5, 50], name: ['echo', 'Zulu'] },
    { id: 'r9', score: null, name: null },
  ];

  beforeAll(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await insertAll(store, 'ord', docs, valueIndex);
  });
  afterAll(() => db.close());

  const ordered = (target: string, mode: 'asc' | 'desc', extra: Clause = {}) => {
    const query = parseRecordQuery({ order: [{ target, mode }], ...extra }, { allowSelect: true });
    return readIdsFrom(store, {
      family: 'ord',
      valueIndex,
      where: query.where,
      order: query.order,
      offset: query.offset,
      count: query.count,
    });
  };

  it('numeric field ascending, records lacking it last in arrival order', async () => {
    expect(await ordered('score', 'asc')).toEqual(['r4', 'r2', 'r5', 'r8', 'r1', 'r6', 'r3', 'r7', 'r9']);
  });

  it('numeric field descending (a list sorts by its largest value), lacking last', async () => {
    expect(await ordered('score', 'desc')).toEqual(['r6', 'r8', 'r1', 'r5', 'r2', 'r4', 'r3', 'r7', 'r9']);
  });

  it('string field ascending bytewise (a list sorts by its smallest value), ties in arrival order, lacking last', async () => {
    expect(await ordered('name', 'asc')).toEqual(['r2', 'r8', 'r3', 'r6', 'r5', 'r1', 'r4', 'r7', 'r9']);
  });

  it('string field descending, lacking last', async () => {
    expect(await ordered('name', 'desc')).toEqual(['r8', 'r1', 'r5', 'r3', 'r6', 'r2', 'r4', 'r7', 'r9']);
  });

  it('order by id', async () => {
    expect(await ordered('id', 'desc')).toEqual(['r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
  });

  it('order with a where and a limit window', async () => {
    expect(await ordered('score', 'desc', { where: { exists: { target: 'name' } }, limit: { from: 1, to: 3 } })).toEqual([
      'r8',
      'r1',
      'r5',
    ]);
    expect(await ordered('score', 'asc', { where: op('reg_exp', 'name', '[a-z].*'), limit: { from: 1, to: 2 } })).toEqual(['r8', 'r1']);
  });

  it('two order terms', async () => {
    const query = parseRecordQuery(
      {
        order: [
          { target: 'name', mode: 'asc' },
          { target: 'score', mode: 'desc' },
        ],
      },
      { allowSelect: true },
    );
    expect(await readIdsFrom(store, { family: 'ord', valueIndex, order: query.order, offset: 0 })).toEqual([
      'r2',
      'r8',
      'r6',
      'r3',
      'r5',
      'r1',
      'r4',
      'r7',
      'r9',
    ]);
  });
});

describe('paging over many records (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;
  const docs: JsonObject[] = Array.from({ length: 2600 }, (_, i) => ({ id: `k${i}`, i, s: `v${i}`, even: i % 2 === 0 }));

  beforeAll(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await insertAll(store, 'bulk', docs);
  });
  afterAll(() => db.close());

  it('arrival-order pages with a window crossing page boundaries', async () => {
    const ids = await readIdsFrom(store, { family: 'bulk', offset: 999, count: 1002 });
    expect(ids).toEqual(docs.slice(999, 2001).map((doc) => doc.id));
    expect(await readIdsFrom(store, { family: 'bulk' })).toHaveLength(2600);
  });

  it('residual filter with a window crossing pages', async () => {
    const where = parseWhere(op('reg_exp', 's', 'v1.*'));
    const all = expectedIds(docs, where);
    expect(all.length).toBeGreaterThan(1100);
    expect(await readIdsFrom(store, { family: 'bulk', where, offset: 5, count: 1100 })).toEqual(all.slice(5, 1105));
    expect(await readIdsFrom(store, { family: 'bulk', where })).toEqual(all);
  });

  it('exact filter with a window crossing pages', async () => {
    const where = parseWhere(eq('even', true));
    const all = expectedIds(docs, where);
    expect(await readIdsFrom(store, { family: 'bulk', where, offset: 400, count: 1000 })).toEqual(all.slice(400, 1400));
  });
});

describe.each([
  ['every path indexed', EVERY],
  ['only name indexed, so n is filtered and ordered in memory', ValueIndex.of(['name'])],
])('delete (SQLite, %s)', (_indexing, valueIndex) => {
  let db: Database.Database;
  let store: SqliteRecordStore;

  const countValues = (sql = '', ...params: unknown[]) =>
    (db.prepare(`SELECT COUNT(*) AS c FROM ${NAMED_VALUE_ROWS} ${sql}`).get(...params) as { c: number }).c;

  beforeEach(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await insertAll(store, FAMILY, RECORDS, valueIndex);
    await insertAll(store, 'other', [{ id: 'a1', name: 'alpha', n: 5 }]);
  });
  afterEach(() => db.close());

  it('deletes the matches, answers their ids in arrival order and removes their value rows', async () => {
    const where = parseWhere({ or: [eq('name', 'alpha'), op('reg_exp', 'name', 'b.*')] });
    const expected = expectedIds(RECORDS, where);
    expect(expected).toEqual(['a1', 'a3', 'e3']);
    const seqs = db
      .prepare(`SELECT seq FROM inventory_record WHERE family = ? AND id IN (${expected.map(() => '?').join(',')})`)
      .pluck()
      .all(FAMILY, ...expected) as number[];
    expect(countValues(`WHERE seq IN (${seqs.join(',')})`)).toBeGreaterThan(0);
    const before = countValues();

    const deleted = await store.delete({ family: FAMILY, valueIndex, where, order: [], offset: 0 });

    expect(deleted).toEqual(expected);
    expect(countValues(`WHERE seq IN (${seqs.join(',')})`)).toBe(0);
    expect(countValues()).toBeLessThan(before);
    const remaining = await readIdsFrom(store, { valueIndex, family: FAMILY });
    expect(remaining).toEqual(RECORDS.map((record) => record.id).filter((id) => !expected.includes(id as string)));
    // The other family's a1 is untouched.
    expect(await readIdsFrom(store, { family: 'other' })).toEqual(['a1']);
    // The rest of the index still answers queries.
    expect(await readIdsFrom(store, { valueIndex, family: FAMILY, where: parseWhere(eq('n', 5)) })).toEqual(['d1']);
  });

  it('deletes in query order when ordered and windowed', async () => {
    const query = parseRecordQuery(
      { where: { exists: { target: 'n' } }, order: [{ target: 'n', mode: 'desc' }], limit: { from: 0, to: 2 } },
      { allowSelect: false },
    );
    const deleted = await store.delete({
      family: FAMILY,
      valueIndex,
      where: query.where,
      order: query.order,
      offset: query.offset,
      count: query.count,
    });
    expect(deleted).toEqual(['a6', 'a7', 'a3']);
    expect(await readIdsFrom(store, { valueIndex, family: FAMILY, where: parseWhere(op('in', 'id', deleted)) })).toEqual([]);
  });

  it('deletes a residual window', async () => {
    const where = parseWhere(op('reg_exp', 'name', '.*a.*'));
    const all = expectedIds(RECORDS, where);
    const deleted = await store.delete({ family: FAMILY, valueIndex, where, order: [], offset: 1, count: 2 });
    expect(deleted).toEqual(all.slice(1, 3));
  });

  it('deletes a whole family without a query, and nothing when nothing matches', async () => {
    expect(await store.delete({ family: FAMILY, valueIndex, where: parseWhere(eq('name', 'nobody')), order: [], offset: 0 })).toEqual([]);
    const deleted = await store.delete({ family: FAMILY, valueIndex, order: [], offset: 0 });
    expect(deleted).toEqual(RECORDS.map((record) => record.id));
    expect(countValues('WHERE family = ?', FAMILY)).toBe(0);
    expect(countValues('WHERE family = ?', 'other')).toBeGreaterThan(0);
  });

  it('deletes by path id', async () => {
    expect(await store.delete({ family: FAMILY, valueIndex, id: 'b1', order: [], offset: 0 })).toEqual(['b1']);
    expect(await readIdsFrom(store, { valueIndex, family: FAMILY, where: parseWhere(eq('actions.id', 'attach')) })).toEqual([]);
  });
});
