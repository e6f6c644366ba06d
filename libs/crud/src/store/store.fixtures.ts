import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRecordQuery } from '../core/query/query-parser';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { Condition, JsonObject, JsonValue } from '../core/query/query.types';
import { RecordSelection, SelectionSpec, StoredRow } from './record-selection';
import { selectionPlan } from './selection-plan';
import { readSelectionNow } from './selection-reader';
import { sqliteDialect, SqlFragment } from './sql-dialect';
import { SqliteRecordStore } from './sqlite-record.store';
import { ValueIndex } from './value-index';

/**
 * What the store specs share: records and queries covering every shape the parser lets
 * through, an in-memory SQLite database with the service's tables, and the reference answers
 * of the in-memory evaluator. Not a spec itself, and not part of the build.
 */

export const FAMILY = 'thing';

export const RECORDS: JsonObject[] = [
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
  {
    id: 'a9',
    config: {},
    nested: {
      deep: {
        list: [
          { id: 1, v: 'one' },
          { id: 2, v: 'two' },
        ],
      },
    },
  },
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
  // NUL and U+0001: GLOB stops at NUL, and PostgreSQL's index holds both as two characters.
  { id: 'g1', name: 'x\u0000y', n: '\u0001' },
  { id: 'g2', name: 'x\u0001', tags: ['\u0000', 'x\u0000'] },
];

export type Clause = Record<string, JsonValue>;

export const eq = (target: string, expr: JsonValue): Clause => ({ equals: { target, expr } });
export const op = (name: string, target: string, expr: JsonValue): Clause => ({ [name]: { target, expr } });

export const QUERIES: [string, Clause][] = [
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
  ['not equals on missing path', { not: eq('nope.nothing', 'x') }],
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
  ['wildcard ? takes a NUL', op('wildcard', 'name', 'x?y')],
  ['wildcard ??? over a NUL', op('wildcard', 'name', '???')],
  ['wildcard prefix before a NUL', op('wildcard', 'name', 'x*')],
  ['wildcard with a NUL in the pattern', op('wildcard', 'name', 'x\u0000*')],
  ['wildcard ? takes U+0001', op('wildcard', 'n', '?')],
  ['wildcard empty against a NUL', op('wildcard', 'tags', '')],
  ['wildcard ? against a NUL', op('wildcard', 'tags', '?')],
  ['wildcard on ids with a NUL in the pattern', op('wildcard', 'id', 'g\u0000*')],
  ['equals a text holding NUL', eq('name', 'x\u0000y')],
  ['lt a text holding NUL', op('lt', 'name', 'x\u0000z')],
  ['gt an id with NUL', op('gt', 'id', 'g\u0000')],
  // reg_exp (residual)
  ['reg_exp prefix', op('reg_exp', 'name', 'a.*')],
  ['reg_exp case-insensitive flag', op('reg_exp', 'name', '(?i)alpha')],
  ['reg_exp whole value only', op('reg_exp', 'name', 'al')],
  ['reg_exp digits on numbers', op('reg_exp', 'n', '[0-9]+')],
  ['reg_exp unicode', op('reg_exp', 'name', 'δ.*')],
  ['reg_exp on id', op('reg_exp', 'id', 'a[0-9]')],
  ['reg_exp alternation through list', op('reg_exp', 'tags', 'x|y')],
  ['reg_exp on booleans', op('reg_exp', 'flag', 'tru.')],
  // Texts every match holds (requiredTexts): the database narrows the texts before the pattern.
  ['reg_exp inner literal', op('reg_exp', 'name', '.*ph.*')],
  ['reg_exp inner literals, all of them', op('reg_exp', 'name', '.*l.*ph[a-z]')],
  ['reg_exp inner literal under a group', op('reg_exp', 'name', '(?:.*l(?:ph|ta))+.*')],
  ['reg_exp inner literal, not under case folding', op('reg_exp', 'name', '.*(?i:PH).*')],
  ['reg_exp inner literal on numbers', op('reg_exp', 'n', '.*0.*')],
  ['reg_exp inner literal in a list', op('reg_exp', 'actions.args', '.*-.*')],
  ['reg_exp inner literal beyond a line break', op('reg_exp', 'name', '(?s).*1.l.*')],
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

export function parseWhere(where: Clause): Condition {
  const query = parseRecordQuery({ where }, { allowSelect: true });
  if (!query.where) throw new Error('no where');
  return query.where;
}

/**
 * A database file in a directory of its own, for specs that open it from more than one
 * connection or need its WAL: `remove` deletes the directory, WAL and all (close every
 * connection first).
 */
export function temporaryDatabaseFile(prefix: string): { file: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  return { file: join(directory, 'db.sqlite'), remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** Value rows with their family and path spelled out (both databases key them), for specs to read: `FROM ${NAMED_VALUE_ROWS} v`. */
export const NAMED_VALUE_ROWS =
  '(SELECT v.seq, p.family, p.path, v.kind, v.text, v.num FROM inventory_value v JOIN inventory_value_path p ON p.key = v.path_key)';

/** The service's SQLite schema (see its migrations), in memory or in a file. */
export function createDatabase(file = ':memory:'): Database.Database {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE inventory_record (seq INTEGER PRIMARY KEY AUTOINCREMENT, family TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, UNIQUE (family, id));
    CREATE TABLE inventory_value_path (key INTEGER PRIMARY KEY, family TEXT NOT NULL, path TEXT NOT NULL, multi INTEGER NOT NULL DEFAULT 0, UNIQUE (family, path));
    CREATE TABLE inventory_value (seq INTEGER NOT NULL, path_key INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT, num REAL);
    CREATE TRIGGER inventory_record_deleted AFTER DELETE ON inventory_record BEGIN DELETE FROM inventory_value WHERE seq = old.seq; END;
    CREATE TABLE inventory_setting (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE INDEX inventory_record_family_seq ON inventory_record (family, seq);
    CREATE INDEX inventory_value_text ON inventory_value (path_key, text, seq);
    CREATE INDEX inventory_value_num ON inventory_value (path_key, num, seq) WHERE num IS NOT NULL;
    CREATE INDEX inventory_value_seq ON inventory_value (seq, path_key);
  `);
  return db;
}

/** A plan's statements run on `db` as the SQLite store runs them, each recorded with how many rows it returned. */
export function statementsOn(db: Database.Database): {
  rows(fragment: SqlFragment): StoredRow[];
  seqs(fragment: SqlFragment): number[];
  texts(fragment: SqlFragment): string[];
  run: { sql: string; params: unknown[]; rows: number }[];
} {
  const run: { sql: string; params: unknown[]; rows: number }[] = [];
  const record = <T>(fragment: SqlFragment, found: T[]): T[] => {
    run.push({ sql: fragment.sql, params: fragment.params, rows: found.length });
    return found;
  };
  return {
    run,
    rows: (fragment) => record(fragment, db.prepare(fragment.sql).all(...fragment.params) as StoredRow[]),
    seqs: (fragment) => record(fragment, plucked<number>(db, fragment)),
    texts: (fragment) => record(fragment, plucked<string>(db, fragment)),
  };
}

/** A read of `family` (every path indexed) planned on SQLite: its ids, and the statements it ran. */
export function readPlanned(
  db: Database.Database,
  family: string,
  query: Clause,
): { ids: string[]; run: ReturnType<typeof statementsOn>['run'] } {
  const parsed = parseRecordQuery(query, { allowSelect: false });
  const queries = statementsOn(db);
  const plan = selectionPlan(new RecordSelection({ family, valueIndex: ValueIndex.EVERY_PATH, ...parsed }, sqliteDialect), 'read');
  return { ids: [...readSelectionNow(plan, queries)].flat().map((row) => row.id), run: queries.run };
}

function plucked<T>(db: Database.Database, fragment: SqlFragment): T[] {
  return db
    .prepare(fragment.sql)
    .pluck()
    .all(...fragment.params) as T[];
}

export async function readAll(store: SqliteRecordStore, spec: SelectionSpec): Promise<{ ids: string[]; docs: JsonObject[] }> {
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

/** Reads ids; the value index defaults to every path, as for a family that declares none. */
export async function readIds(store: SqliteRecordStore, spec: Partial<SelectionSpec> & { family: string }): Promise<string[]> {
  return (await readAll(store, { order: [], offset: 0, valueIndex: ValueIndex.EVERY_PATH, ...spec })).ids;
}

export async function insertAll(
  store: SqliteRecordStore,
  family: string,
  docs: readonly JsonObject[],
  valueIndex = ValueIndex.EVERY_PATH,
): Promise<boolean[]> {
  const outcomes = await store.insert(
    family,
    docs.map((doc) => ({ id: doc.id as string, doc })),
    valueIndex,
  );
  return outcomes.map((outcome) => outcome === 'inserted');
}

export function expectedIds(records: JsonObject[], where: Condition): string[] {
  const evaluator = new QueryEvaluator(where);
  return records.filter((record) => evaluator.matches(record)).map((record) => record.id as string);
}

/** The ids a query with a where clause answers from `records` in arrival order, its window applied, by the evaluator. */
export function expectedWindow(records: JsonObject[], query: Clause): string[] {
  const parsed = parseRecordQuery(query, { allowSelect: false });
  const matching = expectedIds(records, parsed.where!);
  return matching.slice(parsed.offset, parsed.count === undefined ? undefined : parsed.offset + parsed.count);
}

/**
 * Inserts `docs` as `family` between the two halves of `other` (family `other`), so that the
 * family's sequence numbers neither start at 1 nor run without gaps.
 */
export async function insertBetween(store: SqliteRecordStore, family: string, docs: JsonObject[], other: JsonObject[]): Promise<void> {
  const half = other.length / 2;
  await insertAll(store, 'other', other.slice(0, half));
  await insertAll(store, family, docs);
  await insertAll(store, 'other', other.slice(half));
}
