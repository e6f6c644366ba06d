import { SliceClock } from '../core/query/query-budget';
import { PAUSE, PlanPart, seqs } from './plan-step';
import { SeqSet } from './seq-set';
import { SqlFragment, sqliteDialect } from './sql-dialect';
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
export function* evaluateSeqTree(tree: SeqTree, family: string, clock: SliceClock): PlanPart<SeqSet> {
  return yield* evaluate(tree, family, clock, undefined);
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
      // An id lookup is one probe and finds at most a few records: it narrows the rest best.
      const parts = [...tree.parts].sort((a, b) => Number(b.kind === 'ids') - Number(a.kind === 'ids'));
      for (const part of parts) {
        if (result.isNone) break;
        const narrowed = !result.negated && result.seqs.size <= NARROWING_LIMIT ? result.sorted() : within;
        // Each part is exact within `narrowed`, and the result stays inside it.
        result = result.and(yield* evaluate(part, family, clock, narrowed));
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

/**
 * The sequence numbers a leaf lets through; within given candidates, the statement starts from
 * them (CROSS JOIN fixes SQLite's join order) and probes the `(seq, path_key)` index for each.
 */
function leafSql(leaf: Extract<SeqTree, { kind: 'values' | 'ids' }>, family: string, within: number[] | undefined): SqlFragment {
  const from = within ? 'json_each(?) j CROSS JOIN ' : '';
  const join = (alias: string) => (within ? ` ON ${alias}.seq = j.value` : '');
  const candidates = within ? [JSON.stringify(within)] : [];
  if (leaf.kind === 'ids') {
    return {
      sql: `SELECT r.seq FROM ${from}inventory_record r${join('r')} WHERE r.family = ? AND ${leaf.predicate.sql}`,
      params: [...candidates, family, ...leaf.predicate.params],
    };
  }
  return {
    // Within candidates, the planner must not walk the path's values once per candidate.
    sql: `SELECT v.seq FROM ${from}inventory_value v${within ? ' INDEXED BY inventory_value_seq' : ''}${join('v')} WHERE ${sqliteDialect.valuePath('v')} AND ${leaf.predicate.sql}`,
    params: [...candidates, family, leaf.path, ...leaf.predicate.params],
  };
}
