import { QueryAbortedError, QueryBudget, QueryTimeoutError } from '../core/query/query-budget';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { ResidualPool } from './residual-pool';

const whereOf = (where: unknown) => parseRecordQuery({ where }, { allowSelect: false }).where!;

/**
 * One match of this pattern takes re2js about a second on these values (measured), which hold
 * the `c` every match holds (a value without it is turned away before the automaton runs) and
 * still do not match.
 */
const SLOW = { reg_exp: { target: 'text', expr: '(?:[ab]{0,10}){1,100}a(?:a|b){50}c' } };
const slowDocs = (count: number) => Array.from({ length: count }, (_, i) => JSON.stringify({ id: `s${i}`, text: `${'ab'.repeat(500)}c` }));

describe('ResidualPool', () => {
  const pool = new ResidualPool();

  it('answers per record what the evaluator does', async () => {
    const where = whereOf({ or: [{ reg_exp: { target: 'n', expr: 'a.*' } }, { equals: { target: 'm', expr: 1 } }] });
    const docs: JsonObject[] = [{ n: 'abc' }, { n: 'b' }, { n: 'b', m: 1 }, { n: ['x', 'ay'] }, {}];
    const expected = docs.map((doc) => new QueryEvaluator(where).matches(doc));
    expect(
      await pool.evaluate(
        JSON.stringify(where),
        docs.map((doc) => JSON.stringify(doc)),
      ),
    ).toEqual(expected);
    expect(expected).toEqual([true, false, true, true, false]);
  });

  it('keeps the event loop free while a worker matches', async () => {
    let longest = 0;
    let last = performance.now();
    const ticking = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 10);
    try {
      expect(await pool.evaluate(JSON.stringify(whereOf(SLOW)), slowDocs(2))).toEqual([false, false]);
    } finally {
      clearInterval(ticking);
    }
    expect(longest).toBeLessThan(250);
  });

  it.each([
    ['runs out of time', () => new QueryBudget(300), QueryTimeoutError],
    [
      'loses its client',
      () => {
        const gone = new AbortController();
        setTimeout(() => gone.abort(), 300);
        return new QueryBudget(60_000, gone.signal);
      },
      QueryAbortedError,
    ],
  ])('stops a job at once when its query %s, and serves the next one', async (_why, budgetOf, error) => {
    const started = Date.now();
    await expect(pool.evaluate(JSON.stringify(whereOf(SLOW)), slowDocs(20), budgetOf())).rejects.toBeInstanceOf(error);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await pool.evaluate(JSON.stringify(whereOf({ exists: { target: 'n' } })), ['{"n":1}', '{}'])).toEqual([true, false]);
  });
});
