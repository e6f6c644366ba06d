import { SliceClock } from '../core/query/query-budget';
import { PAUSE, PlanPart, seqs } from './plan-step';
import { SeqSet } from './seq-set';
import { SqlDialect, SqlFragment } from './sql-dialect';
import { isLeaf, LeafTree, leafSeqs, SeqTree } from './where-compiler';
import { firstInArrivalOrder, firstNotInArrivalOrder } from './first-in-arrival-order';
import { probeLeaf } from './leaf-probe';
import { patternMatches } from './pattern-leaf';

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
export function* evaluateSeqTree(tree: SeqTree, on: TreeContext, firstOnly?: number): PlanPart<SeqSet> {
  if (firstOnly !== undefined && isLeaf(tree)) {
    return new SeqSet(new Set(yield* firstInArrivalOrder(tree, on.family, firstOnly, on.clock, on.dialect)), false);
  }
  if (firstOnly !== undefined && tree.kind === 'not' && isLeaf(tree.part)) {
    const first = yield* firstNotInArrivalOrder(tree.part, on.family, firstOnly, on.clock, on.dialect);
    if (first) return new SeqSet(new Set(first), false);
  }
  return yield* evaluate(tree, on, undefined);
}

/** The family a tree is about, the read's time slices, and the SQL spoken. */
export interface TreeContext {
  family: string;
  clock: SliceClock;
  dialect: SqlDialect;
}

function* evaluate(tree: SeqTree, on: TreeContext, within: number[] | undefined): PlanPart<SeqSet> {
  const { family, clock, dialect } = on;
  switch (tree.kind) {
    case 'all':
      return SeqSet.ALL;
    case 'none':
      return SeqSet.NONE;
    case 'values':
    case 'ids': {
      const found = new SeqSet(new Set(yield* seqs(leafSql(tree, family, within, dialect))), false);
      if (clock.sliceSpent) yield PAUSE;
      return found;
    }
    case 'pattern': {
      const found = yield* patternMatches(tree, family, within, dialect, (values, candidates) => evaluate(values, on, candidates));
      if (clock.sliceSpent) yield PAUSE;
      return found;
    }
    case 'not':
      return (yield* evaluate(tree.part, on, within)).not();
    case 'and': {
      let result = SeqSet.ALL;
      const later: LeafTree[] = [];
      for (const part of byNarrowingFirst(tree.parts)) {
        if (result.isNone) return result;
        const narrowed = narrowing(result, within);
        if (narrowed === within && isLeaf(part)) {
          // Nothing narrows this `and` yet: a leaf that lets many records through waits until
          // another part has narrowed it (a time window's two bounds: each alone lets most of
          // the family through), and the first leaf that lets few through narrows the rest.
          const { broad, found } = yield* probeLeaf(leafSql(part, family, within, dialect), NARROWING_LIMIT, dialect);
          if (clock.sliceSpent) yield PAUSE;
          if (broad) later.push(part);
          else result = result.and(found ? new SeqSet(new Set(found), false) : yield* evaluate(part, on, within));
          continue;
        }
        // Each part is exact within `narrowed`, and the result stays inside it.
        result = result.and(yield* evaluate(part, on, narrowed));
      }
      if (later.length > 1 && narrowing(result, within) === within) {
        // Nothing narrowed, and two leaves each let most records through (a time window at
        // midday: ~50k each of 100k events, 5 in common). Two bounds on a path where every
        // record holds one value at most are one range of the value index; otherwise one
        // statement intersects them where the rows are, instead of both sets crossing over
        // (PostgreSQL: 93–100 ms).
        const bounds = boundsOnOnePath(later);
        const merged = bounds && !(yield* isMultiValued(bounds[0].path, on)) ? mergedRange(bounds[0], bounds[1]) : undefined;
        const [first, second] = bounds ?? later.slice(0, 2);
        later.splice(later.indexOf(first), 1);
        later.splice(later.indexOf(second), 1);
        const sql = merged ? leafSql(merged, family, within, dialect) : intersection(first, second, family, within, dialect);
        result = result.and(new SeqSet(new Set(yield* seqs(sql)), false));
        if (clock.sliceSpent) yield PAUSE;
      }
      for (const part of later) {
        if (result.isNone) break;
        result = result.and(yield* evaluate(part, on, narrowing(result, within)));
      }
      return result;
    }
    case 'or': {
      let result = SeqSet.NONE;
      for (const part of tree.parts) {
        if (result.isAll) break;
        result = result.or(yield* evaluate(part, on, within));
      }
      return result;
    }
  }
}

type RangeBound = Extract<SeqTree, { kind: 'values' }> & { bound: 'text' | 'number' };

/** The first two range bounds of the same type on one path among `leaves`, if there are two. */
function boundsOnOnePath(leaves: readonly LeafTree[]): [RangeBound, RangeBound] | undefined {
  const bounds = leaves.filter((leaf): leaf is RangeBound => leaf.kind === 'values' && leaf.bound !== undefined);
  for (let i = 1; i < bounds.length; i++) {
    const partner = bounds.slice(0, i).find((bound) => bound.path === bounds[i].path && bound.bound === bounds[i].bound);
    if (partner) return [partner, bounds[i]];
  }
  return undefined;
}

function* isMultiValued(path: string, on: TreeContext): PlanPart<boolean> {
  return (yield* seqs(on.dialect.multiValued(on.family, path))).length > 0;
}

/**
 * The records with one value between both bounds: where no record holds two values at the
 * path, exactly those that pass both (a record with `[1, 100]` passes `>= 50` and `< 10`,
 * with no value between). Bounds of one type list their conditions alike (`compileRange`),
 * each on one kind of value, so they pair up by position.
 */
function mergedRange(first: RangeBound, second: RangeBound): LeafTree {
  const anyOf = first.anyOf.map((condition, position) => {
    const other = second.anyOf[position];
    return { sql: `${condition.sql} AND ${other.sql}`, params: [...condition.params, ...other.params] };
  });
  return { kind: 'values', path: first.path, anyOf };
}

function intersection(first: LeafTree, second: LeafTree, family: string, within: number[] | undefined, dialect: SqlDialect): SqlFragment {
  const [a, b] = [leafSql(first, family, within, dialect), leafSql(second, family, within, dialect)];
  return { sql: `SELECT seq FROM (${a.sql}) AS a INTERSECT SELECT seq FROM (${b.sql}) AS b`, params: [...a.params, ...b.params] };
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

/**
 * The sequence numbers a leaf lets through (`leafSeqs`); within given candidates, only theirs,
 * one SELECT per condition under UNION ALL as `leafSeqs` does.
 */
export function leafSql(leaf: LeafTree, family: string, within: number[] | undefined, dialect: SqlDialect): SqlFragment {
  if (!within) return leafSeqs(leaf, family, dialect);
  if (leaf.kind === 'ids') return dialect.idSeqsWithin(within, family, leaf.predicate);
  const selects = leaf.anyOf.map((condition) => dialect.valueSeqsWithin(within, family, leaf.path, condition));
  return { sql: selects.map((select) => select.sql).join(' UNION ALL '), params: selects.flatMap((select) => select.params) };
}
