import { SliceClock } from '../core/query/query-budget';
import { PAUSE, PlanPart, seqs } from './plan-step';
import { SeqSet } from './seq-set';
import { SqlFragment, SQLITE_KEYED_PATH, sqliteDialect } from './sql-dialect';
import { SeqTree } from './where-compiler';

/**
 * Once an `and` has narrowed its candidates to this many, its next parts look only at them
 * (one index probe per candidate) instead of at every value of their path.
 */
export const NARROWING_LIMIT = 10_000;

/**
 * Evaluates a where tree one leaf at a time on SQLite: one statement per leaf, the sets combined
 * in memory. better-sqlite3 runs a statement on the event loop's thread, and a clause of 100
 * leaves that each scan their path (`*x*` wildcards, ranges, `not`) made one statement of
 * seconds (3.8 s on 100k events); a leaf alone costs ~20-120 ms there, and other requests get
 * in between leaves.
 */
export function* evaluateSeqTree(tree: SeqTree, family: string, clock: SliceClock, firstOnly?: number): PlanPart<SeqSet> {
  if (firstOnly !== undefined && (tree.kind === 'values' || tree.kind === 'ids')) {
    return new SeqSet(new Set(yield* seqs(firstInArrivalOrder(leafSql(tree, family, undefined), firstOnly))), false);
  }
  return yield* evaluate(tree, family, clock, undefined);
}

/**
 * The first `count` records a leaf lets through, in arrival order, for a read that wants no
 * more: an equality walks its index in that order and stops there. Materializing every match
 * first cost 20k sequence numbers for `severity == "error"` on 100k events (the first ten:
 * 5.3-6.2 ms as a whole read). DISTINCT: a list can hold one value twice, and a leaf's
 * conditions are several SELECTs.
 */
function firstInArrivalOrder(fragment: SqlFragment, count: number): SqlFragment {
  return { sql: `SELECT DISTINCT seq FROM (${fragment.sql}) ORDER BY seq LIMIT ?`, params: [...fragment.params, count] };
}

function* evaluate(tree: SeqTree, family: string, clock: SliceClock, within: number[] | undefined): PlanPart<SeqSet> {
  switch (tree.kind) {
    case 'all':
      return SeqSet.ALL;
    case 'none':
      return SeqSet.NONE;
    case 'values':
    case 'ids': {
      const found = new SeqSet(new Set(yield* seqs(leafSql(tree, family, within))), false);
      if (clock.sliceSpent) yield PAUSE;
      return found;
    }
    case 'not':
      return (yield* evaluate(tree.part, family, clock, within)).not();
    case 'and': {
      let result = SeqSet.ALL;
      const later: SeqTree[] = [];
      for (const part of byNarrowingFirst(tree.parts)) {
        if (result.isNone) return result;
        const narrowed = narrowing(result, within);
        if (narrowed === within && (part.kind === 'values' || part.kind === 'ids')) {
          // Nothing narrows this `and` yet: a leaf that lets many records through waits until
          // another part has narrowed it (a time window's two bounds: each alone lets most of
          // the family through), and the first leaf that lets few through narrows the rest.
          const first = yield* seqs(limited(leafSql(part, family, within), NARROWING_LIMIT + 1));
          if (clock.sliceSpent) yield PAUSE;
          if (first.length > NARROWING_LIMIT) later.push(part);
          else result = result.and(new SeqSet(new Set(first), false));
          continue;
        }
        // Each part is exact within `narrowed`, and the result stays inside it.
        result = result.and(yield* evaluate(part, family, clock, narrowed));
      }
      for (const part of later) {
        if (result.isNone) break;
        result = result.and(yield* evaluate(part, family, clock, narrowing(result, within)));
      }
      return result;
    }
    case 'or': {
      let result = SeqSet.NONE;
      for (const part of tree.parts) {
        if (result.isAll) break;
        result = result.or(yield* evaluate(part, family, clock, within));
      }
      return result;
    }
  }
}

/** The candidates the parts after `result` may look only at: `result` itself once it is small. */
function narrowing(result: SeqSet, within: number[] | undefined): number[] | undefined {
  return !result.negated && result.seqs.size <= NARROWING_LIMIT ? result.sorted() : within;
}

/**
 * An id lookup is one probe and finds at most a few records: it narrows the rest best. Then the
 * other leaves, each one statement; `and`, `or` and `not` parts last, within what they left.
 */
function byNarrowingFirst(parts: readonly SeqTree[]): SeqTree[] {
  const rank = (part: SeqTree) => (part.kind === 'ids' ? 0 : part.kind === 'values' ? 1 : 2);
  return [...parts].sort((a, b) => rank(a) - rank(b));
}

function limited(fragment: SqlFragment, limit: number): SqlFragment {
  return { sql: `${fragment.sql} LIMIT ?`, params: [...fragment.params, limit] };
}

/**
 * The sequence numbers a leaf lets through; within given candidates, the statement starts from
 * them (CROSS JOIN fixes SQLite's join order) and probes the `(seq, path_key)` index for each.
 * A value leaf's conditions are one SELECT each, under UNION ALL (a record may come twice; the
 * caller keeps a set): SQLite gives an OR of equalities on two columns (an `in` of a text and a
 * number) one index on `path_key` alone, a scan of all of the path's values (100k events:
 * 170 ms for 111 matches), where each SELECT alone uses the index of its column.
 */
export function leafSql(leaf: Extract<SeqTree, { kind: 'values' | 'ids' }>, family: string, within: number[] | undefined): SqlFragment {
  const candidates = within ? [JSON.stringify(within)] : [];
  if (leaf.kind === 'ids') {
    const from = within ? 'json_each(?) j CROSS JOIN inventory_record r ON r.seq = j.value' : 'inventory_record r';
    return {
      sql: `SELECT r.seq FROM ${from} WHERE r.family = ? AND ${leaf.predicate.sql}`,
      params: [...candidates, family, ...leaf.predicate.params],
    };
  }
  const selects = leaf.anyOf.map((condition) => ({
    sql: within
      ? // Within candidates, the planner must not walk the path's values once per candidate.
        `SELECT v.seq FROM json_each(?) j CROSS JOIN inventory_value_path k CROSS JOIN inventory_value v INDEXED BY inventory_value_seq
          WHERE v.seq = j.value AND ${SQLITE_KEYED_PATH} AND ${condition.sql}`
      : sqliteDialect.valueSeqs(condition.sql),
    params: [...candidates, family, leaf.path, ...condition.params],
  }));
  return { sql: selects.map((select) => select.sql).join(' UNION ALL '), params: selects.flatMap((select) => select.params) };
}
