import fc from 'fast-check';
import { sendJson } from '../support/json-http';
import { prototypeSnapshot } from '../support/prototype-snapshot';
import { answer, Clause, Doc, Json, project } from '../support/query-reference';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/**
 * Issue 11, property: paths made of names of inherited JavaScript properties, in `select`,
 * `where` and `order`, over real HTTP, never change a shared prototype and never answer 5xx;
 * every answer is exactly what the plain reference says (such a name matches only a field a
 * record holds itself), and `select` keeps exactly the named paths.
 *
 * `FC_RUNS` sets the number of queries (100 by default); the seed is fixed.
 */
const RUNS = Number(process.env.FC_RUNS ?? 100);
const SEED = 11_2026;

const INHERITED = [
  ...new Set(
    [Object.prototype, Function.prototype, Array.prototype, String.prototype, Number.prototype]
      .flatMap((prototype) => Object.getOwnPropertyNames(prototype))
      .concat(['prototype', '__proto__', 'constructor']),
  ),
].sort();
/** Keys a body may not hold (CONTRACT.md §3); queries may still name them. */
const REFUSED_IN_BODIES = new Set(['__proto__', 'constructor', 'prototype']);
const HOLDABLE = INHERITED.filter((name) => !REFUSED_IN_BODIES.has(name));

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INHERITED) },
  { weight: 1, arbitrary: fc.constantFrom('id', 'x', 'source') },
);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('.'));
const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom('own', 'x', '1', 'call'),
  fc.integer({ min: -2, max: 3 }),
  fc.boolean(),
  fc.constant(null),
);

/** Records that hold some of those names as their own fields, nested and in lists. */
const held: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom(...HOLDABLE.slice(0, 12), 'x'), tie('value'), { maxKeys: 2 }) as fc.Arbitrary<Json>,
  ),
})).value;

const leaf: fc.Arbitrary<Clause> = fc.oneof(
  path.map((target) => ({ exists: { target } })),
  path.chain((target) => scalar.map((expr) => ({ equals: { target, expr } }))),
  path.chain((target) => fc.array(scalar, { maxLength: 3 }).map((expr) => ({ in: { target, expr } }))),
  path.chain((target) => fc.constantFrom('*', 'o*', '?', 'c?ll').map((expr) => ({ wildcard: { target, expr } }))),
  path.chain((target) => fc.constantFrom('.*', 'o.n', '[a-z]+').map((expr) => ({ reg_exp: { target, expr } }))),
  path.chain((target) => fc.oneof(fc.constantFrom('n', 'own'), fc.integer({ min: 0, max: 2 })).map((expr) => ({ gt: { target, expr } }))),
);
const where: fc.Arbitrary<Clause> = fc.letrec<{ clause: Clause }>((tie) => ({
  clause: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('clause'), { minLength: 1, maxLength: 3 }).map((clauses) => ({ or: clauses })),
    fc.array(tie('clause'), { minLength: 1, maxLength: 3 }).map((clauses) => ({ and: clauses })),
    tie('clause').map((clause) => ({ not: clause })),
  ),
})).clause;

const query = fc.record(
  {
    select: fc.uniqueArray(path, { minLength: 1, maxLength: 6 }),
    where,
    order: fc.array(fc.record({ target: path, mode: fc.constantFrom('asc' as const, 'desc' as const) }), { maxLength: 3 }),
  },
  { requiredKeys: ['select'] },
);

describe.each(databaseKinds())('paths of inherited names over HTTP on %s (issue 11)', (kind) => {
  let t: TestApp;
  let docs: Doc[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const [records] = fc.sample(
      fc.array(fc.dictionary(fc.constantFrom(...HOLDABLE), held, { maxKeys: 5 }), { minLength: 12, maxLength: 12 }),
      { seed: SEED, numRuns: 1 },
    );
    docs = records.map((fields, i) => ({ id: `p${String(i).padStart(2, '0')}`, source: `s${i % 3}`, ...fields }));
    const created = await sendJson(t.url, 'POST', '/event', { body: docs, authorization: bearer() });
    expect(created.status).toBe(201);
  });
  afterAll(async () => t?.close());

  it(
    'never change a prototype, never answer 5xx, and answer what the reference says',
    async () => {
      const before = prototypeSnapshot();
      const token = bearer({}, { expiresIn: 24 * 3600 });
      await fc.assert(
        fc.asyncProperty(query, fc.boolean(), async (sent, viaParameter) => {
          const got = viaParameter
            ? await sendJson(t.url, 'GET', `/event?q=${encodeURIComponent(JSON.stringify(sent))}`, { authorization: token })
            : await sendJson(t.url, 'GET', '/event', { body: sent, authorization: token });
          const expected = answer(docs, sent).map((doc) => project(doc, sent.select));
          expect({ query: sent, status: got.status }).toEqual({ query: sent, status: expected.length > 0 ? 200 : 404 });
          if (got.status === 200)
            expect({ query: sent, body: JSON.stringify(got.body) }).toEqual({ query: sent, body: JSON.stringify(expected) });
          expect(prototypeSnapshot()).toEqual(before);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    60_000 + RUNS * 50,
  );
});
