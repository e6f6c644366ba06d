import fc from 'fast-check';
import { DataSource } from 'typeorm';
import {
  parseRecordQuery,
  projectRecord,
  QueryBudget,
  QueryEvaluator,
  recordStoreFor,
  RecordStore,
  SelectionSpec,
  ValueIndex,
} from '@inventory/crud';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { answer, Clause, Doc, Json, matches, OrderTermJson, project } from '../support/query-reference';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

/**
 * Issue 11, property: random records and random queries within the caps get the same answer
 * through the SQL path (every path indexed, so SQL decides what it can), through the in-memory
 * path (nothing indexed: the evaluator filters and MemoryOrder sorts), from the evaluator alone,
 * and from the plain reference in `query-reference.ts` — where, order, limit and select, and
 * the ids a delete removes, on SQLite and PostgreSQL.
 *
 * `FC_RUNS` sets the number of record sets (100 by default, several queries each); the seed is
 * fixed, so a failure reproduces.
 */
const RUNS = Number(process.env.FC_RUNS ?? 100);
const SEED = 11_2026;

// Field names include names of inherited properties (never those a body refuses) and `id`.
const KEYS = ['a', 'b', 'n', 's', 'list', 'id', 'toString', 'valueOf', 'length'] as const;
const FIELD_KEYS = KEYS.filter((key) => key !== 'id');

const text = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.string({
      unit: fc.constantFrom('a', 'b', 'A', '5', '1', '.', '*', '?', '%', '_', '[', 'é', '😀', ' ', '\u0000', '\u0001'),
      maxLength: 4,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '5',
      '10',
      '-3.5',
      '1e+21',
      'true',
      'false',
      'null',
      'ＡＢ',
      '\uffff',
      'line\nbreak',
      'x\u0000y',
      '\u0001',
      `${'z'.repeat(205)}q`,
      `${'z'.repeat(205)}r`,
    ),
  },
);
const number = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(0.5, -3.5, 10, 1e21, 1e-7, 2 ** 53, 7.25));
const scalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 3, arbitrary: number },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const value: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...FIELD_KEYS), tie('value'), { maxKeys: 3 }) as fc.Arbitrary<Json>,
  ),
})).value;

const IDS = ['r1', 'r2', 'r3', 'r10', 'R', '9', '10', 'é', '😀', 'a-b', 'ｚ', 'z'];
const records = fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 10 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc
        .record(
          {
            a: scalar,
            s: text,
            list: fc.array(scalar, { maxLength: 3 }),
            more: fc.dictionary(fc.constantFrom(...FIELD_KEYS), value, { maxKeys: 3 }),
          },
          { requiredKeys: [] },
        )
        .map(({ more, ...fields }) => ({ id, ...more, ...fields })),
    ),
  ),
);

// Mostly the few top-level fields every record set has, so that conditions meet values often.
const path = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a', 's', 'list') },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 }).map((segments) => segments.join('.')) },
);
const PATTERNS = [
  'a.*',
  '.*b',
  'a|b',
  '[ab]+',
  '5',
  '1.*',
  'tru.',
  'a{1,3}',
  '(?:ab)*',
  '.',
  '',
  '\\d+',
  '.{0,3}',
  'z+q',
  '[^a]*',
  '-?\\d+(?:\\.\\d+)?',
  // Literal prefixes that narrow candidates through the text index: NUL and U+0001 (encoded on
  // PostgreSQL), past the 200 characters PostgreSQL's index holds, U+FFFF (its successor is
  // U+10000, past the UTF-16 surrogates).
  'x\u0000.*',
  '\u0001',
  `${'z'.repeat(205)}.`,
  'ＡＢ',
  '\uffff.*',
  // Texts every match holds, checked by the database before the pattern (requiredTexts): inside
  // the value, NUL and U+0001 (encoded on PostgreSQL), past the index's 200 characters, under a
  // repeated group, as alternatives.
  '.*a.*',
  '.*\u0000y',
  '.*\u0001.*',
  `.*${'z'.repeat(3)}.*q`,
  '(?:.*z)+q',
  '.*(?:a|5)1.*',
  '.*é.*',
];

const leaf: fc.Arbitrary<Clause> = fc.oneof(
  path.chain((target) => fc.oneof(scalar, value).map((expr) => ({ equals: { target, expr } }))),
  path.chain((target) => fc.array(scalar, { maxLength: 4 }).map((expr) => ({ in: { target, expr } }))),
  path.chain((target) =>
    fc.tuple(fc.constantFrom('lt', 'lte', 'gt', 'gte'), fc.oneof(text, number)).map(([op, expr]) => ({ [op]: { target, expr } })),
  ),
  path.map((target) => ({ exists: { target } })),
  path.chain((target) =>
    fc
      .string({ unit: fc.constantFrom('a', 'b', '*', '?', '5', '.', '%', '_', '[', 'z', '😀', '\u0000', '\u0001'), maxLength: 4 })
      .map((expr) => ({ wildcard: { target, expr } })),
  ),
  path.chain((target) => fc.constantFrom(...PATTERNS).map((expr) => ({ reg_exp: { target, expr } }))),
);

const where: fc.Arbitrary<Clause> = fc.letrec<{ clause: Clause }>((tie) => ({
  clause: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('clause'), { minLength: 1, maxLength: 3 }).map((clauses) => ({ and: clauses })),
    fc.array(tie('clause'), { minLength: 1, maxLength: 3 }).map((clauses) => ({ or: clauses })),
    tie('clause').map((clause) => ({ not: clause })),
  ),
})).clause;

interface Query {
  where?: Clause;
  order?: OrderTermJson[];
  limit?: { from: number; to: number };
  select?: string[];
}

const query: fc.Arbitrary<Query> = fc.record(
  {
    where,
    order: fc.array(fc.record({ target: fc.oneof(path, fc.constant('id')), mode: fc.constantFrom('asc' as const, 'desc' as const) }), {
      maxLength: 3,
    }),
    limit: fc.tuple(fc.nat(4), fc.nat(4)).map(([from, more]) => ({ from, to: from + more })),
    select: fc.uniqueArray(path, { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: [] },
);

describe.each(databaseKinds())('queries agree: SQL, in memory, evaluator and reference, on %s (issue 11)', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: RecordStore;
  let run = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const url = database.url;
    dataSource = await new DataSource(
      dataSourceOptions(kind === 'sqlite' ? { type: 'sqlite', path: url.slice('sqlite:'.length) } : { type: 'postgres', url }),
    ).initialize();
    await dataSource.runMigrations({ transaction: 'all' });
    store = recordStoreFor(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const NOTHING = ValueIndex.of([]);
  const EVERYTHING = ValueIndex.EVERY_PATH;

  async function readAll(spec: SelectionSpec): Promise<{ ids: string[]; docs: Doc[] }> {
    const ids: string[] = [];
    const docs: Doc[] = [];
    for await (const page of store.read(spec)) {
      for (const row of page) {
        ids.push(row.id);
        docs.push(JSON.parse(row.doc) as Doc);
      }
    }
    return { ids, docs };
  }

  it(
    'every query answers as the reference does, through every path',
    async () => {
      await fc.assert(
        fc.asyncProperty(records, fc.array(query, { minLength: 1, maxLength: 4 }), async (sent, queries) => {
          run += 1;
          // What the service stores and reads back is the JSON text: -0 becomes 0, and so on.
          const docs = sent.map((doc) => JSON.parse(JSON.stringify(doc)) as Doc);
          const bySql = `s${run}`;
          const inMemory = `m${run}`;
          await store.insert(
            bySql,
            docs.map((doc) => ({ id: doc.id as string, doc: doc })),
            EVERYTHING,
          );
          await store.insert(
            inMemory,
            docs.map((doc) => ({ id: doc.id as string, doc: doc })),
            NOTHING,
          );

          for (const sentQuery of queries) {
            const parsed = parseRecordQuery(sentQuery, { allowSelect: true });
            const { select, ...selection } = parsed;
            const expected = answer(docs, sentQuery);
            const expectedIds = expected.map((doc) => doc.id);
            const context = { query: sentQuery, records: docs };

            const sql = await readAll({ family: bySql, valueIndex: EVERYTHING, ...selection });
            expect({ ...context, path: 'sql', ids: sql.ids }).toEqual({ ...context, path: 'sql', ids: expectedIds });
            expect(sql.docs).toEqual(expected);
            // As the service reads: with a budget, each statement on a connection of its own (PostgreSQL).
            const budgeted = await readAll({ family: bySql, valueIndex: EVERYTHING, ...selection, budget: new QueryBudget(10_000) });
            expect({ ...context, path: 'sql with a budget', ids: budgeted.ids }).toEqual({
              ...context,
              path: 'sql with a budget',
              ids: expectedIds,
            });
            const memory = await readAll({ family: inMemory, valueIndex: NOTHING, ...selection });
            expect({ ...context, path: 'memory', ids: memory.ids }).toEqual({ ...context, path: 'memory', ids: expectedIds });

            if (parsed.where) {
              const evaluator = new QueryEvaluator(parsed.where);
              for (const doc of docs) {
                expect({ ...context, doc, path: 'evaluator', matches: evaluator.matches(doc) }).toEqual({
                  ...context,
                  doc,
                  path: 'evaluator',
                  matches: matches(sentQuery.where!, doc),
                });
              }
            }
            if (select) {
              for (const doc of sql.docs) {
                const got = JSON.stringify(projectRecord(doc, select));
                expect({ ...context, doc, select: got }).toEqual({
                  ...context,
                  doc,
                  select: JSON.stringify(project(doc, sentQuery.select!)),
                });
              }
            }
          }

          // A delete removes what a read of the same query answers, in the same order.
          const last = queries[queries.length - 1];
          const deleting = { where: last.where, order: last.order, limit: last.limit };
          const { select: _none, ...spec } = parseRecordQuery(deleting, { allowSelect: false });
          const expectedDeleted = answer(docs, deleting).map((doc) => doc.id);
          for (const [family, valueIndex] of [
            [bySql, EVERYTHING],
            [inMemory, NOTHING],
          ] as const) {
            const deleted = await store.delete({ family, valueIndex, ...spec });
            expect({ query: deleting, family, deleted }).toEqual({ query: deleting, family, deleted: expectedDeleted });
            const left = await readAll({ family, valueIndex, order: [], offset: 0 });
            expect(left.ids).toEqual(docs.map((doc) => doc.id).filter((id) => !expectedDeleted.includes(id)));
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    60_000 + RUNS * 100,
  );
});
