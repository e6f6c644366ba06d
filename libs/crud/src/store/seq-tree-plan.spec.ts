import Database from 'better-sqlite3';
import { ENDLESS_SLICE } from '../core/query/query-budget';
import { Condition, JsonObject } from '../core/query/query.types';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { asRecord, PlanAnswer } from './plan-step';
import { SeqSet } from './seq-set';
import { evaluateSeqTree, leafSql, NARROWING_LIMIT } from './seq-tree-plan';
import { sqliteDialect } from './sql-dialect';
import { SqliteRecordStore } from './sqlite-record.store';
import { Clause, createDatabase, expectedIds, insertAll, op, parseWhere, readIds, statementsOn } from './store.fixtures';
import { ValueIndex } from './value-index';
import { RecordSelection } from './record-selection';
import { parseRecordQuery } from '../core/query/query-parser';
import { compileWhereTree, SeqTree } from './where-compiler';

const FAMILY = 'event';
/** More records than NARROWING_LIMIT, so that a leaf can let more through than an `and` narrows to. */
const COUNT = NARROWING_LIMIT + 2_000;
const second = (i: number) =>
  `2026-11-21T${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;
const DOCS: JsonObject[] = Array.from({ length: COUNT }, (_, i) => ({
  id: `e${i}`,
  timestamp: second(i),
  bytes: (i * 7919) % 100_000,
  // Numbers, their text and booleans at one path: what an `in` of several kinds looks for.
  packets: i % 3 === 0 ? i % 50 : i % 3 === 1 ? String(i % 50) : i % 2 === 0,
  tags: ['bench', `t${i % 40}`],
}));

const LEAVES: [string, Clause][] = [
  ['a numeric range', op('gt', 'bytes', 99_000)],
  ['an in of a text and a number', { in: { target: 'packets', expr: ['7', 9] } }],
  ['an equality on a number, as text', op('equals', 'packets', '7')],
  ['an in of a number and a boolean', { in: { target: 'packets', expr: [7, true] } }],
  ['a range on text', op('lt', 'timestamp', '2026-11-21T00:00:09Z')],
  ['a wildcard', op('wildcard', 'tags', 't1*')],
];

function leafOf(clause: Clause): Extract<SeqTree, { kind: 'values' }> {
  const { tree } = compileWhereTree(parseWhere(clause), ValueIndex.EVERY_PATH, sqliteDialect);
  if (tree.kind !== 'values') throw new Error(`not one value leaf: ${tree.kind}`);
  return tree;
}

/** Evaluates a where tree's statements on `db`, each recorded with the number of rows it returned. */
function evaluate(db: Database.Database, where: Clause): { found: SeqSet; statements: { sql: string; params: unknown[]; rows: number }[] } {
  const { tree } = compileWhereTree(parseWhere(where), ValueIndex.EVERY_PATH, sqliteDialect);
  const queries = statementsOn(db);
  const plan = evaluateSeqTree(tree, { family: FAMILY, clock: ENDLESS_SLICE, dialect: sqliteDialect });
  let answer: PlanAnswer;
  for (;;) {
    const step = plan.next(answer);
    if (step.done) return { found: step.value, statements: queries.run };
    const current = step.value;
    if (current.kind === 'seqs') answer = queries.seqs(current.sql);
    else if (current.kind === 'texts') answer = queries.texts(current.sql);
    else if (current.kind === 'rows') answer = queries.rows(current.sql);
    else if (current.kind === 'filter') {
      const evaluator = new QueryEvaluator(JSON.parse(current.where) as Condition);
      answer = current.rows.map((row) => evaluator.matches(asRecord(row.doc, current.textsAt)));
    } else answer = undefined;
  }
}

describe('where leaves on SQLite', () => {
  let db: Database.Database;
  let seqOf: Map<number, string>;

  beforeAll(async () => {
    db = createDatabase();
    await insertAll(new SqliteRecordStore(db), FAMILY, DOCS);
    seqOf = new Map(
      (db.prepare('SELECT seq, id FROM inventory_record').all() as { seq: number; id: string }[]).map((row) => [row.seq, row.id]),
    );
  });
  afterAll(() => db.close());

  const idsOf = (found: SeqSet) =>
    [...found.seqs].map((seq) => seqOf.get(seq) as string).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

  const planOf = ({ sql, params }: { sql: string; params: unknown[] }) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((row) => row.detail)
      .filter((detail) => / v\b/.test(detail));

  // Before: `v.num > ? OR (v.kind IN ('s', 'b') AND v.text > ?)` under a scalar subquery for
  // the path's key scanned every value row of the database; an `in` of a text and a number
  // searched by the path's key alone, so read every value of its path.
  it.each(LEAVES)('%s searches an index by its value, never scans the value rows', (_name, clause) => {
    const plan = planOf(leafSql(leafOf(clause), FAMILY, undefined, sqliteDialect));
    expect(plan).not.toHaveLength(0);
    for (const detail of plan)
      expect(detail).toMatch(/^SEARCH v USING (COVERING )?INDEX inventory_value_(num|text) \(path_key=\? AND (num|text)[<>=]/);
  });

  it.each(LEAVES)('%s within candidates probes each one by its sequence number', (_name, clause) => {
    const plan = planOf(leafSql(leafOf(clause), FAMILY, [1, 2, 3], sqliteDialect));
    expect(plan).not.toHaveLength(0);
    for (const detail of plan) expect(detail).toMatch(/^SEARCH v USING INDEX inventory_value_seq \(seq=\? AND path_key=\?\)/);
  });

  it('exists reads every value of its path, and no other', () => {
    const plan = planOf(leafSql(leafOf({ exists: { target: 'tags' } }), FAMILY, undefined, sqliteDialect));
    expect(plan).toEqual([expect.stringMatching(/^SEARCH v USING INDEX inventory_value_(num|text) \(path_key=\?\)/)]);
  });

  it.each([...LEAVES, ['exists', { exists: { target: 'tags' } }] as [string, Clause]])(
    '%s lets through what the evaluator matches',
    (_name, clause) => {
      const { found } = evaluate(db, clause);
      expect(idsOf(found)).toEqual(expectedIds(DOCS, parseWhere(clause)));
    },
  );

  it('a reg_exp with a literal prefix reads only the texts starting with it, and decides the leaf exactly', async () => {
    const clause = op('reg_exp', 'timestamp', '2026-11-21T00:01:[0-5]5Z');
    const { found, statements } = evaluate(db, clause);
    const texts = statements.find((statement) => statement.sql.startsWith('SELECT v.text AS text'))!;
    expect(texts.params).toEqual(['event', 'timestamp', '2026-11-21T00:01:', '2026-11-21T00:01;', '5Z']);
    expect(planOf({ sql: texts.sql, params: texts.params })).toEqual([
      expect.stringMatching(/^SEARCH v USING (COVERING )?INDEX inventory_value_text \(path_key=\? AND text>\? AND text<\?\)/),
    ]);
    // Of the 60 texts of that minute, the 6 that hold `5Z` (as every match does) went through
    // the pattern; before, all 60, and before that the leaf let their 60 records through, to
    // be checked whole.
    expect(texts.rows).toBe(6);
    expect(idsOf(found)).toEqual(expectedIds(DOCS, parseWhere(clause)));
    expect(found.seqs.size).toBe(6);
    const read = await readIds(new SqliteRecordStore(db), { family: FAMILY, where: parseWhere(clause) });
    expect(read).toEqual(expectedIds(DOCS, parseWhere(clause)));
  });

  it.each<[string, Clause]>([
    ['a pattern with no literal prefix, on numbers, texts and booleans', op('reg_exp', 'packets', '(4|tru)e?')],
    ['a pattern matching nothing', op('reg_exp', 'tags', 'x+')],
    ['its negation', { not: op('reg_exp', 'packets', '1.*') }],
    ['a pattern within an `and`', { and: [op('reg_exp', 'tags', 't1.'), op('lt', 'bytes', 20_000)] }],
  ])('%s: matched once per distinct text, exactly', (_label, clause) => {
    const { found, statements } = evaluate(db, clause);
    const ids = found.negated ? DOCS.filter((_doc, seq) => !found.seqs.has(seq + 1)).map((doc) => doc.id) : idsOf(found);
    expect(ids).toEqual(expectedIds(DOCS, parseWhere(clause)));
    // Each distinct text once: `packets` holds ~100 distinct texts, `tags` 41.
    for (const statement of statements.filter((entry) => entry.sql.startsWith('SELECT v.text AS text'))) {
      expect(statement.rows).toBeLessThanOrEqual(101);
    }
  });

  it('an `and` whose first leaf lets most records through starts from the leaf that lets few through', () => {
    // A time window: its lower bound alone lets every record but 100 through.
    const window = { and: [op('gte', 'timestamp', second(100)), op('lt', 'timestamp', second(130))] };
    const { found, statements } = evaluate(db, window);
    expect(idsOf(found)).toEqual(expectedIds(DOCS, parseWhere(window)));
    expect(found.seqs.size).toBe(30);
    // Before: the lower bound's statement returned all 11,900 of its records.
    expect(Math.max(...statements.map((statement) => statement.rows))).toBeLessThanOrEqual(NARROWING_LIMIT + 1);
  });

  it('two bounds that each let many records through, on a path of one value per record, are one range', () => {
    // A time window whose bounds each let more records through than an `and` narrows to.
    const [from, to] = [COUNT - NARROWING_LIMIT - 500, NARROWING_LIMIT + 600];
    const window = { and: [op('gte', 'timestamp', second(from)), op('lt', 'timestamp', second(to))] };
    const { found, statements } = evaluate(db, window);
    expect(idsOf(found)).toEqual(expectedIds(DOCS, parseWhere(window)));
    expect(found.seqs.size).toBe(to - from);
    expect(statements.filter((statement) => statement.sql.includes(' INTERSECT '))).toEqual([]);
    // One statement holds both bounds and returns the window's records, and no more.
    const ranges = statements.filter((statement) => (statement.sql.match(/v\.text [<>]=? \?/g) ?? []).length === 2);
    expect(ranges).toEqual([expect.objectContaining({ rows: to - from })]);
    // Before: each bound's statement returned all of its records (10,500 and 10,600), to be
    // intersected in memory; now only the probes, cut at NARROWING_LIMIT + 1, come back whole.
    expect(Math.max(...statements.map((statement) => statement.rows))).toBeLessThanOrEqual(NARROWING_LIMIT + 1);
  });

  it('two such bounds on a path of lists intersect their records in one statement, exactly', () => {
    // Every record has 'bench' (< 't3') and a t-tag: most pass `>= 't1'`, all pass `< 't3'`,
    // while only t1, t2 and t10–t29 lie between.
    const window = { and: [op('gte', 'tags', 't1'), op('lt', 'tags', 't3')] };
    const { found, statements } = evaluate(db, window);
    expect(idsOf(found)).toEqual(expectedIds(DOCS, parseWhere(window)));
    expect(found.seqs.size).toBeGreaterThan(NARROWING_LIMIT);
    expect(statements.filter((statement) => statement.sql.includes(' INTERSECT '))).toHaveLength(1);
  });

  it('a record written with two values at a path of one value so far stops its bounds being one range', async () => {
    const levels = Array.from({ length: COUNT }, (_, i) => ({ id: `l${i}`, level: i }));
    const store = new SqliteRecordStore(db);
    await insertAll(store, 'levels', levels);
    const window = { and: [op('gte', 'level', 1_000), op('lt', 'level', COUNT - 1_000)] };
    const read = () => readIds(store, { family: 'levels', where: parseWhere(window), valueIndex: ValueIndex.EVERY_PATH });
    expect(await read()).toEqual(expectedIds(levels, parseWhere(window)));
    // Both bounds pass it through its two values, though none lies between them.
    const both = { id: 'both', level: [500, COUNT] };
    await insertAll(store, 'levels', [both]);
    expect(await read()).toContain('both');
    expect(await read()).toEqual(expectedIds([...levels, both], parseWhere(window)));
  });

  it('an `and` of leaves that each let many through is still exact', () => {
    const broad = { and: [op('gte', 'timestamp', second(10)), op('gte', 'bytes', 100), { not: op('equals', 'tags', 't3') }] };
    const { found } = evaluate(db, broad);
    expect(found.seqs.size).toBeGreaterThan(NARROWING_LIMIT);
    expect(idsOf(found)).toEqual(expectedIds(DOCS, parseWhere(broad)));
  });

  // Before: MAX(v.text) of each candidate walked the path's text index from its end until it met
  // the candidate, a scan of the path per record (20k events ordered by timestamp: ~10 s).
  it.each([
    ['desc', 'timestamp'],
    ['asc', 'bytes'],
  ])("ordering (%s by %s) looks up each candidate's own values by its sequence number", (mode, target) => {
    const selection = new RecordSelection(
      {
        family: FAMILY,
        valueIndex: ValueIndex.EVERY_PATH,
        order: parseRecordQuery({ order: [{ target, mode }] }, { allowSelect: false }).order,
        offset: 0,
        count: 10,
      },
      sqliteDialect,
    );
    expect(selection.orderInSql).toBe(true);
    const plan = planOf(selection.firstRows(10));
    expect(plan).toHaveLength(2);
    for (const detail of plan) expect(detail).toMatch(/^SEARCH v USING INDEX inventory_value_seq \(seq=\? AND path_key=\?\)/);
  });

  describe('a read in arrival order with a window', () => {
    const DUPLICATES: JsonObject[] = Array.from({ length: 40 }, (_, i) => ({
      id: `d${i}`,
      tags: i % 2 === 0 ? ['a', 'a'] : ['b'],
      n: i % 4 === 0 ? 7 : '7',
    }));
    beforeAll(async () => {
      await insertAll(new SqliteRecordStore(db), 'dup', DUPLICATES);
    });

    it.each([
      [FAMILY, op('equals', 'tags', 't7'), 0, 10],
      [FAMILY, op('equals', 'tags', 't7'), 250, 10],
      [FAMILY, op('equals', 'tags', 't7'), 295, 10],
      [FAMILY, op('gt', 'bytes', 50_000), 0, 10],
      ['dup', op('equals', 'tags', 'a'), 0, 5],
      ['dup', op('equals', 'tags', 'a'), 3, 5],
      ['dup', { in: { target: 'n', expr: [7, '7'] } }, 2, 12],
    ])('of %s %j from %d, %d records: the window of the whole result', async (family, clause, offset, count) => {
      const where = parseWhere(clause);
      const docs = family === FAMILY ? DOCS : DUPLICATES;
      const read = await readIds(new SqliteRecordStore(db), { family, where, offset, count });
      expect(read).toEqual(expectedIds(docs, where).slice(offset, offset + count));
      expect(read.length).toBeGreaterThan(0);
    });
  });
});
