import { Condition } from '../core/query/query.types';
import { filteredTexts, PAUSE, PlanPart, texts as textsOf } from './plan-step';
import { SeqSet } from './seq-set';
import { SqlDialect, SqlFragment } from './sql-dialect';
import { SeqTree } from './where-compiler';

type PatternLeaf = Extract<SeqTree, { kind: 'pattern' }>;
type ValuesLeaf = Extract<SeqTree, { kind: 'values' }>;

/** Distinct texts read, and sent through the pattern, at a time. */
export const PATTERN_TEXTS_PAGE = 4_096;

/**
 * The records a `reg_exp` leaf lets through: the path's distinct texts (among the leaf's
 * candidates, and the records `within`), a page at a time in text order, go through the pattern
 * in the residual worker (one match can take long: see ResidualPool), and the records holding a
 * text that matched are found in the text index. A value shared by many records is matched once:
 * `.*-00012[0-9]` on the hosts of 100k events had sent every event through the worker.
 */
export function* patternMatches(
  leaf: PatternLeaf,
  family: string,
  within: number[] | undefined,
  dialect: SqlDialect,
  matching: (values: ValuesLeaf, within: number[] | undefined) => PlanPart<SeqSet>,
): PlanPart<SeqSet> {
  const where = JSON.stringify(onText(leaf.pattern));
  let result = SeqSet.NONE;
  let after: string | undefined;
  for (;;) {
    const page = yield* textsOf(distinctTexts(leaf, family, within, dialect, after));
    const texts = page.map((text) => dialect.storedText(text));
    const verdicts = yield* filteredTexts(where, 'v', texts);
    const matched = texts.filter((_, index) => verdicts[index]);
    if (matched.length > 0) {
      result = result.or(yield* matching({ kind: 'values', path: leaf.path, anyOf: [dialect.textIn(matched)] }, within));
    }
    if (page.length < PATTERN_TEXTS_PAGE) return result;
    after = page[page.length - 1];
    yield PAUSE;
  }
}

/** The pattern as a where clause on a document `{"v": text}`: what the worker evaluates. */
function onText(pattern: string): Condition {
  return { kind: 'pattern', op: 'reg_exp', path: ['v'], pattern };
}

/** The next page of distinct texts after `after` (as stored), one column named `text`. */
function distinctTexts(leaf: PatternLeaf, family: string, within: number[] | undefined, dialect: SqlDialect, after?: string): SqlFragment {
  const texts: SqlFragment = within
    ? dialect.valueSeqsWithin(within, family, leaf.path, leaf.candidates, TEXT_COLUMN)
    : { sql: dialect.valueSeqs(leaf.candidates.sql, TEXT_COLUMN), params: [family, leaf.path, ...leaf.candidates.params] };
  // In the text index's order, each page a range of it (PostgreSQL, ordering by the whole text,
  // which its index does not hold, had read and sorted all of the path's texts for every page).
  const beyond = after === undefined ? { sql: '', params: [] } : dialect.textCompared('>', after);
  const order = dialect.textOrder;
  return {
    sql: `${texts.sql} AND v.text IS NOT NULL${beyond.sql && ` AND ${beyond.sql}`} GROUP BY ${order} ORDER BY ${order} LIMIT ${PATTERN_TEXTS_PAGE}`,
    params: [...texts.params, ...beyond.params],
  };
}

const TEXT_COLUMN = 'v.text AS text';
