import Database from 'better-sqlite3';
import { parseRecordQuery } from '../core/query/query-parser';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { Condition, JsonObject, JsonValue } from '../core/query/query.types';
import { SelectionSpec } from './record-selection';
import { SqliteRecordStore } from './sqlite-record.store';
import { compileWhere } from './where-compiler';
import { postgresDialect, sqliteDialect, toPostgresPlaceholders } from './sql-dialect';

/**
 * Agreement: what SQL (plus the residual evaluator) selects must be exactly what the reference
 * evaluator accepts, in arrival order, for every query shape the parser lets through.
 */

const FAMILY = 'thing';

const RECORDS: JsonObject[] = [
  {
    id: 'a1',
    name: 'alpha',
    n: 5,
    tags: ['x', 'y'],
    actions: [{ id: 'start', status: 'started' }, { id: 'stop' }],
    ts: '2024-01-01T10:00:00Z',
    config: { cmd: 'run', port: 8080 },
  },
  { id: 'a2', name: 'Alpha', n: '5', flag: true, ts: '2024-03-05T00:00:00.000Z' },
  { id: 'a3', name: 'beta', n: 10, flag: false, tags: [], actions: [] },
  { id: 'a4', name: null, n: -3.5, flag: 'true' },
  { id: 'a5', name: 'gamma[1]', n: 0, tags: ['a%b', 'c_d'] },
  { id: 'a6', name: 'δέλτα', n: 1e21, note: 'ünïcödé 😀' },
  { id: 'a7', config: { cmd: 'run', port: '8080' }, n: 100 },
  { id: 'a8', config: { cmd: 'stop' }, n: 9 },
  { id: 'a9', config: {}, nested: { deep: { list: [{ id: 1, v: 'one' }, { id: 2, v: 'two' }] } } },
  {
    id: 'b1',
    actions: [
      { id: 'start', status: 'stopped' },
      { id: 'attach', status: 'unknown', args: ['-v', '--x'] },
    ],
    n: 2,
  },
  { id: 'b2', tags: ['x'], n: true },
  { id: 'b3', tags: [['x', 'z'], ['q']] },
  { id: 'b4', tags: [null], n: null },
  { id: 'b5', name: '', n: '10' },
  { id: 'b6', name: 'aaaa!', ts: '2023-12-31T23:59:59Z' },
  { id: 'b7', name: 'a*b?c', n: 7.25 },
  { id: 'b8', name: 'line1\nline2' },
  { id: 'b9', config: { cmd: 'run', port: 8080, extra: { a: 1 } } },
  { id: 'c1', 'a.b': 1, a: { c: 2 } },
  { id: 'c2', a: { b: 1 } },
  { id: 'c3', status: 'started', n: 'abc' },
  { id: 'c4', status: 'STARTED', n: 'Abc' },
  { id: 'c5', list: [1, '1', true, null, { x: 1 }] },
  { id: 'c6', list: [] },
  { id: 'c7', list: [[]] },
  { id: 'c8', name: 'ｆｕｌｌ', n: '\uFF01' },
  { id: 'c9', n: '😀' },
  { id: 'd1', n: 5, flag: null },
  { id: 'd2', obj: { id: 'x', k: 'v' } },
  { id: 'd3', obj: [{ id: 'x', k: 'v' }, { id: 'y' }] },
  { id: 'd4', name: '50%_off' },
  { id: 'd5', name: '[abc]' },
  { id: 'd6', name: 'a' },
  { id: 'd7', name: 'ab', n: -0.0001 },
  { id: 'd8', flag: true, tags: ['true'] },
  { id: 'd9', ts: '2024-02-29T12:00:00+01:00' },
  { id: 'e1', config: { cmd: ['run', 'stop'] } },
  { id: 'e2', deep: { a: { b: { c: { d: 'bottom' } } } } },
  { id: 'e3', name: 'alpha', n: 5 },
  { id: 'E-4', name: 'ALPHA' },
  { id: '10', n: 10 },
  { id: '9', n: '9' },
  { id: 'f1', name: 'it%s', n: 'x_y' },
  { id: 'f2', name: 'itXs', n: 'xzy' },
];

type Clause = Record<string, JsonValue>;

const eq = (target: string, expr: JsonValue): Clause => ({ equals: { target, expr } });
const op = (name: string, target: string, expr: JsonValue): Clause => ({ [name]: { target, expr } });

const QUERIES: [string, Clause][] = [
  // equals
  ['equals string', eq('name', 'alpha')],
  ['equals is case-sensitive', eq('name', 'Alpha')],
  ['equals number finds numbers only', eq('n', 5)],
  ['equals string "5" finds 5 and "5"', eq('n', '5')],
  ['equals string "10"', eq('n', '10')],
  ['equals true', eq('flag', true)],
  ['equals "true" finds true and "true"', eq('flag', 'true')],
  ['equals false', eq('flag', false)],
  ['equals null', eq('name', null)],
  ['equals null on n', eq('n', null)],
  ['equals through list element', eq('tags', 'x')],
  ['equals a whole list', eq('tags', ['x', 'y'])],
  ['equals an object value', eq('config', { cmd: 'run', port: 8080 })],
  ['equals an object value, other key order', eq('config', { port: 8080, cmd: 'run' })],
  ['equals through list of objects', eq('actions.id', 'start')],
  ['equals nested list status', eq('actions.status', 'started')],
  ['equals numeric id in nested list', eq('nested.deep.list.id', 1)],
  ['equals "1" on nested numeric id', eq('nested.deep.list.id', '1')],
  ['equals in mixed list number', eq('list', 1)],
  ['equals in mixed list "1"', eq('list', '1')],
  ['equals in mixed list null', eq('list', null)],
  ['equals an object inside a list', eq('list', { x: 1 })],
  ['equals empty list', eq('list', [])],
  ['equals a list of null', eq('tags', [null])],
  ['equals a list holding an empty list', eq('list', [[]])],
  ['in with an empty list among values', op('in', 'tags', [[], 'q'])],
  ['not equals empty list', { not: eq('tags', []) }],
  ['equals empty object', eq('config', {})],
  ['equals dotted path', eq('a.b', 1)],
  ['equals record id', eq('id', 'a1')],
  ['equals record id with a number', eq('id', 10)],
  ['equals record id numeric string', eq('id', '10')],
  ['equals empty string', eq('name', '')],
  ['equals nested obj id', eq('obj.id', 'x')],
  ['equals list element of a nested list', eq('tags', 'z')],
  ['equals on missing path', eq('nope.nothing', 'x')],
  ['equals number 1e21', eq('n', 1e21)],
  ['equals "1e+21"', eq('n', '1e+21')],
  ['equals unicode', eq('name', 'δέλτα')],
  // in
  ['in with null', op('in', 'name', ['alpha', 'beta', null])],
  ['in with mixed types', op('in', 'n', [5, '10', true])],
  ['in with an object among values', op('in', 'n', [{ a: 1 }, 5])],
  ['in on record id', op('in', 'id', ['a1', 'b2', 3])],
  ['in empty', op('in', 'tags', [])],
  ['in booleans', op('in', 'flag', [false, 'true'])],
  ['in list values', op('in', 'config.cmd', ['stop', ['run', 'stop']])],
  // exists
  ['exists name', { exists: { target: 'name' } }],
  ['exists tags (empty list and [null] do not exist)', { exists: { target: 'tags' } }],
  ['exists list', { exists: { target: 'list' } }],
  ['exists nested args', { exists: { target: 'actions.args' } }],
  ['exists object', { exists: { target: 'config' } }],
  ['exists id', { exists: { target: 'id' } }],
  ['exists dotted', { exists: { target: 'a.b' } }],
  ['exists flag', { exists: { target: 'flag' } }],
  ['not exists tags', { not: { exists: { target: 'tags' } } }],
  ['not exists id', { not: { exists: { target: 'id' } } }],
  // ranges
  ['lt number', op('lt', 'n', 5)],
  ['lte number', op('lte', 'n', 5)],
  ['gt number', op('gt', 'n', 5)],
  ['gte string "5"', op('gte', 'n', '5')],
  ['gt string "a"', op('gt', 'n', 'a')],
  ['lt timestamp', op('lt', 'ts', '2024-01-01')],
  ['gte timestamp', op('gte', 'ts', '2024-01-01T10:00:00Z')],
  ['gt name', op('gt', 'name', 'alpha')],
  ['gt BMP-high text vs astral', op('gt', 'n', '\uFF00')],
  ['lt astral text', op('lt', 'n', '😀')],
  ['gt record id', op('gt', 'id', 'b')],
  ['lt record id with number', op('lt', 'id', 5)],
  ['gt flag text', op('gt', 'flag', 'f')],
  ['gt huge number', op('gt', 'n', 1e20)],
  ['lt nested port', op('lt', 'config.port', 9000)],
  ['gt nested status', op('gt', 'actions.status', 'st')],
  ['lte negative', op('lte', 'n', -0.0001)],
  // wildcard
  ['wildcard prefix', op('wildcard', 'name', 'a*')],
  ['wildcard one char', op('wildcard', 'name', 'al?ha')],
  ['wildcard with [', op('wildcard', 'name', '*[1]')],
  ['wildcard literal [abc]', op('wildcard', 'name', '[abc]')],
  ['wildcard with %', op('wildcard', 'name', '*%*')],
  ['wildcard with % and _', op('wildcard', 'name', '50%_*')],
  ['wildcard with _', op('wildcard', 'n', 'x_y')],
  ['wildcard % literal', op('wildcard', 'name', 'it%s')],
  ['wildcard list element with %', op('wildcard', 'tags', 'a%b')],
  ['wildcard on numbers', op('wildcard', 'n', '1*')],
  ['wildcard on booleans', op('wildcard', 'flag', 't*')],
  ['wildcard on id', op('wildcard', 'id', 'a?')],
  ['wildcard star matches empty', op('wildcard', 'name', '*')],
  ['wildcard single ?', op('wildcard', 'name', '?')],
  ['wildcard astral as one char', op('wildcard', 'note', 'ünïcödé ?')],
  ['wildcard across newline', op('wildcard', 'name', 'line1*')],
  ['wildcard literal * and ?', op('wildcard', 'name', 'a*b?c')],
  ['wildcard is case-sensitive', op('wildcard', 'name', 'A*')],
  // reg_exp (residual)
  ['reg_exp prefix', op('reg_exp', 'name', 'a.*')],
  ['reg_exp case-insensitive flag', op('reg_exp', 'name', '(?i)alpha')],
  ['reg_exp whole value only', op('reg_exp', 'name', 'al')],
  ['reg_exp digits on numbers', op('reg_exp', 'n', '[0-9]+')],
  ['reg_exp unicode', op('reg_exp', 'name', 'δ.*')],
  ['reg_exp on id', op('reg_exp', 'id', 'a[0-9]')],
  ['reg_exp alternation through list', op('reg_exp', 'tags', 'x|y')],
  ['reg_exp on booleans', op('reg_exp', 'flag', 'tru.')],
  ['not reg_exp', { not: op('reg_exp', 'name', 'a.*') }],
  ['or reg_exp / equals', { or: [op('reg_exp', 'name', 'b.*'), eq('n', 5)] }],
  ['and reg_exp / gt', { and: [op('reg_exp', 'name', '.*a.*'), op('gt', 'n', 0)] }],
  ['not of or with residual', { not: { or: [op('reg_exp', 'name', 'b.*'), eq('flag', true)] } }],
  ['not of equals on object', { not: eq('config', { cmd: 'run', port: 8080 }) }],
  // combinations
  ['not equals', { not: eq('name', 'alpha') }],
  ['not not', { not: { not: eq('flag', true) } }],
  ['not in', { not: op('in', 'n', [5, 10]) }],
  ['not in empty', { not: op('in', 'n', []) }],
  ['and list', { and: [eq('name', 'alpha'), eq('n', 5)] }],
  ['and object form', { and: { equals: { target: 'name', expr: 'alpha' }, gt: { target: 'n', expr: 1 } } }],
  ['or list', { or: [eq('name', 'beta'), eq('flag', true), { exists: { target: 'obj' } }] }],
  ['or object form', { or: { equals: { target: 'name', expr: 'beta' }, exists: { target: 'note' } } }],
  ['several keys ANDed', { equals: { target: 'name', expr: 'alpha' }, exists: { target: 'tags' } }],
  ['nested and/or/not', { and: [{ or: [eq('tags', 'x'), eq('tags', 'true')] }, { not: eq('n', true) }] }],
  ['or of nots', { or: [{ not: { exists: { target: 'n' } } }, op('lt', 'n', 0)] }],
  ['not wildcard', { not: op('wildcard', 'name', '*a*') }],
  ['not exists on a null-only field', { not: { exists: { target: 'flag' } } }],
];

function parseWhere(where: Clause): Condition {
  const query = parseRecordQuery({ where }, { allowSelect: true });
  if (!query.where) throw new Error('no where');
  return query.where;
}

function createDatabase(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`
    CREATE TABLE inventory_record (seq INTEGER PRIMARY KEY AUTOINCREMENT, family TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE (family, id));
    CREATE TABLE inventory_value (seq INTEGER NOT NULL REFERENCES inventory_record(seq) ON DELETE CASCADE, family TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, text TEXT, num REAL);
  `);
  return db;
}

async function readAll(store: SqliteRecordStore, spec: SelectionSpec): Promise<{ ids: string[]; docs: JsonObject[] }> {
  const ids: string[] = [];
  const docs: JsonObject[] = [];
  for await (const page of store.read(spec)) {
    for (const row of page) {
      ids.push(row.id);
      docs.push(JSON.parse(row.doc) as JsonObject);
    }
  }
  return { ids, docs };
}

async function readIds(store: SqliteRecordStore, spec: Partial<SelectionSpec> & { family: string }): Promise<string[]> {
  return (await readAll(store, { order: [], offset: 0, ...spec })).ids;
}

function expectedIds(records: JsonObject[], where: Condition): string[] {
  const evaluator = new QueryEvaluator(where);
  return records.filter((record) => evaluator.matches(record)).map((record) => record.id as string);
}

describe('where compiler agrees with the reference evaluator (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;

  beforeAll(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    // Another family with overlapping ids and values: must never leak into results.
    await store.insert('other', [
      { id: 'a1', doc: { id: 'a1', name: 'alpha', n: 5, tags: ['x'] } },
      { id: 'zz', doc: { id: 'zz', name: 'beta', flag: true } },
    ]);
    const inserted = await store.insert(
      FAMILY,
      RECORDS.map((doc) => ({ id: doc.id as string, doc })),
    );
    expect(inserted).toEqual(RECORDS.map(() => true));
  });

  afterAll(() => db.close());

  it('stores every record intact and reads them all in arrival order', async () => {
    const { ids, docs } = await readAll(store, { family: FAMILY, order: [], offset: 0 });
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
    const actual = await readIds(store, { family: FAMILY, where: condition });
    expect(actual).toEqual(expected);
  });

  it('pins a few answers literally (the evaluator itself is right, not only consistent)', async () => {
    const ids = (where: Clause) => readIds(store, { family: FAMILY, where: parseWhere(where) });
    expect(await ids(eq('n', '5'))).toEqual(['a1', 'a2', 'd1', 'e3']);
    expect(await ids(eq('n', 5))).toEqual(['a1', 'd1', 'e3']);
    expect(await ids(eq('flag', 'true'))).toEqual(['a2', 'a4', 'd8']);
    expect(await ids(eq('config', { cmd: 'run', port: 8080 }))).toEqual(['a1']);
    expect(await ids(eq('actions.id', 'start'))).toEqual(['a1', 'b1']);
    expect(await ids({ exists: { target: 'tags' } })).toEqual(['a1', 'a5', 'b2', 'b3', 'd8']);
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
    expect(await readIds(store, { family: FAMILY, id: 'a1' })).toEqual(['a1']);
    expect(await readIds(store, { family: FAMILY, id: 'a1', where: parseWhere(eq('name', 'alpha')) })).toEqual(['a1']);
    expect(await readIds(store, { family: FAMILY, id: 'a2', where: parseWhere(eq('name', 'alpha')) })).toEqual([]);
    expect(await readIds(store, { family: FAMILY, id: 'a1', where: parseWhere(op('reg_exp', 'name', 'al.*')) })).toEqual([
      'a1',
    ]);
    expect(await readIds(store, { family: FAMILY, id: 'nope' })).toEqual([]);
    expect(await readIds(store, { family: 'other', id: 'a1', where: parseWhere(eq('name', 'alpha')) })).toEqual(['a1']);
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
          const ids = await readIds(store, { family: FAMILY, where: condition, offset, count });
          const expected = count === undefined ? all.slice(offset) : all.slice(offset, offset + count);
          expect({ offset, count, ids }).toEqual({ offset, count, ids: expected });
        }
      });
    }

    it('limit parsed from the query ({from, to} inclusive) selects that window', async () => {
      const query = parseRecordQuery({ where: op('reg_exp', 'name', '.*a.*'), limit: { from: 1, to: 3 } }, { allowSelect: true });
      const all = expectedIds(RECORDS, query.where!);
      const ids = await readIds(store, { family: FAMILY, where: query.where, offset: query.offset, count: query.count });
      expect(ids).toEqual(all.slice(1, 4));
      expect(ids).toHaveLength(3);
    });
  });

  it('compiled SQL binds every value as a parameter', () => {
    const condition = parseWhere({
      or: [eq('name', "x' OR 1=1 --"), op('wildcard', 'note', "*'*"), op('gt', "we'ird", 'a')],
    });
    for (const dialect of [sqliteDialect, postgresDialect]) {
      const compiled = compileWhere(condition, "fam'ily", dialect);
      expect(compiled.sql).not.toContain("'ily");
      expect(compiled.sql).not.toContain('OR 1=1');
      expect(compiled.sql).not.toContain("we'ird");
      expect(compiled.params).toEqual(expect.arrayContaining(["x' OR 1=1 --", "fam'ily", "we'ird"]));
      expect(compiled.exact).toBe(true);
      expect(compiled.sql.split('?').length - 1).toBe(compiled.params.length);
    }
    const pg = compileWhere(condition, 'f', postgresDialect);
    expect(toPostgresPlaceholders(pg.sql)).toContain(`$${pg.params.length}`);
    expect(toPostgresPlaceholders(pg.sql)).not.toContain('?');
  });

  it('postgres wildcard escapes LIKE metacharacters', () => {
    expect(postgresDialect.wildcard('v.text', '50%_*?\\').param).toBe('50\\%\\_%_\\\\');
    expect(sqliteDialect.wildcard('v.text', 'a[b]*').param).toBe('a[[]b]*');
  });

  it('marks reg_exp and object equality as inexact, plain operators as exact', () => {
    expect(compileWhere(parseWhere(op('reg_exp', 'name', 'a.*')), FAMILY, sqliteDialect).exact).toBe(false);
    expect(compileWhere(parseWhere(eq('config', { a: 1 })), FAMILY, sqliteDialect).exact).toBe(false);
    expect(compileWhere(parseWhere({ not: op('reg_exp', 'name', 'a') }), FAMILY, sqliteDialect).exact).toBe(false);
    expect(compileWhere(parseWhere(eq('name', 'a')), FAMILY, sqliteDialect).exact).toBe(true);
    expect(compileWhere(parseWhere({ not: op('in', 'n', [1, 'a', true, null]) }), FAMILY, sqliteDialect).exact).toBe(true);
  });
});

describe('order (SQLite)', () => {
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
    await store.insert(
      'ord',
      docs.map((doc) => ({ id: doc.id as string, doc })),
    );
  });
  afterAll(() => db.close());

  const ordered = (target: string, mode: 'asc' | 'desc', extra: Clause = {}) => {
    const query = parseRecordQuery({ order: [{ target, mode }], ...extra }, { allowSelect: true });
    return readIds(store, { family: 'ord', where: query.where, order: query.order, offset: query.offset, count: query.count });
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
    expect(
      await ordered('score', 'asc', { where: op('reg_exp', 'name', '[a-z].*'), limit: { from: 1, to: 2 } }),
    ).toEqual(['r8', 'r1']);
  });

  it('two order terms', async () => {
    const query = parseRecordQuery(
      { order: [{ target: 'name', mode: 'asc' }, { target: 'score', mode: 'desc' }] },
      { allowSelect: true },
    );
    expect(await readIds(store, { family: 'ord', order: query.order, offset: 0 })).toEqual([
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
    await store.insert(
      'bulk',
      docs.map((doc) => ({ id: doc.id as string, doc })),
    );
  });
  afterAll(() => db.close());

  it('arrival-order pages with a window crossing page boundaries', async () => {
    const ids = await readIds(store, { family: 'bulk', offset: 999, count: 1002 });
    expect(ids).toEqual(docs.slice(999, 2001).map((doc) => doc.id));
    expect(await readIds(store, { family: 'bulk' })).toHaveLength(2600);
  });

  it('residual filter with a window crossing pages', async () => {
    const where = parseWhere(op('reg_exp', 's', 'v1.*'));
    const all = expectedIds(docs, where);
    expect(all.length).toBeGreaterThan(1100);
    expect(await readIds(store, { family: 'bulk', where, offset: 5, count: 1100 })).toEqual(all.slice(5, 1105));
    expect(await readIds(store, { family: 'bulk', where })).toEqual(all);
  });

  it('exact filter with a window crossing pages', async () => {
    const where = parseWhere(eq('even', true));
    const all = expectedIds(docs, where);
    expect(await readIds(store, { family: 'bulk', where, offset: 400, count: 1000 })).toEqual(all.slice(400, 1400));
  });
});

describe('delete (SQLite)', () => {
  let db: Database.Database;
  let store: SqliteRecordStore;

  const countValues = (sql = '', ...params: unknown[]) =>
    (db.prepare(`SELECT COUNT(*) AS c FROM inventory_value ${sql}`).get(...params) as { c: number }).c;

  beforeEach(async () => {
    db = createDatabase();
    store = new SqliteRecordStore(db);
    await store.insert(
      FAMILY,
      RECORDS.map((doc) => ({ id: doc.id as string, doc })),
    );
    await store.insert('other', [{ id: 'a1', doc: { id: 'a1', name: 'alpha', n: 5 } }]);
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

    const deleted = await store.delete({ family: FAMILY, where, order: [], offset: 0 });

    expect(deleted).toEqual(expected);
    expect(countValues(`WHERE seq IN (${seqs.join(',')})`)).toBe(0);
    expect(countValues()).toBeLessThan(before);
    const remaining = await readIds(store, { family: FAMILY });
    expect(remaining).toEqual(RECORDS.map((record) => record.id).filter((id) => !expected.includes(id as string)));
    // The other family's a1 is untouched.
    expect(await readIds(store, { family: 'other' })).toEqual(['a1']);
    // The rest of the index still answers queries.
    expect(await readIds(store, { family: FAMILY, where: parseWhere(eq('n', 5)) })).toEqual(['d1']);
  });

  it('deletes in query order when ordered and windowed', async () => {
    const query = parseRecordQuery(
      { where: { exists: { target: 'n' } }, order: [{ target: 'n', mode: 'desc' }], limit: { from: 0, to: 2 } },
      { allowSelect: false },
    );
    const deleted = await store.delete({ family: FAMILY, where: query.where, order: query.order, offset: query.offset, count: query.count });
    expect(deleted).toEqual(['a6', 'a7', 'a3']);
    expect(await readIds(store, { family: FAMILY, where: parseWhere(op('in', 'id', deleted)) })).toEqual([]);
  });

  it('deletes a residual window', async () => {
    const where = parseWhere(op('reg_exp', 'name', '.*a.*'));
    const all = expectedIds(RECORDS, where);
    const deleted = await store.delete({ family: FAMILY, where, order: [], offset: 1, count: 2 });
    expect(deleted).toEqual(all.slice(1, 3));
  });

  it('deletes a whole family without a query, and nothing when nothing matches', async () => {
    expect(await store.delete({ family: FAMILY, where: parseWhere(eq('name', 'nobody')), order: [], offset: 0 })).toEqual([]);
    const deleted = await store.delete({ family: FAMILY, order: [], offset: 0 });
    expect(deleted).toEqual(RECORDS.map((record) => record.id));
    expect(countValues('WHERE family = ?', FAMILY)).toBe(0);
    expect(countValues('WHERE family = ?', 'other')).toBeGreaterThan(0);
  });

  it('deletes by path id', async () => {
    expect(await store.delete({ family: FAMILY, id: 'b1', order: [], offset: 0 })).toEqual(['b1']);
    expect(await readIds(store, { family: FAMILY, where: parseWhere(eq('actions.id', 'attach')) })).toEqual([]);
  });
});
