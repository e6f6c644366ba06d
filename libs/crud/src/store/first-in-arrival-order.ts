import { SliceClock } from '../core/query/query-budget';
import { probeLeaf } from './leaf-probe';
import { PAUSE, PlanPart, seqs } from './plan-step';
import { SqlDialect, SqlFragment } from './sql-dialect';
import { LeafTree, leafSeqs } from './where-compiler';

/** Matches a leaf may have and still be read whole: more make it broad. */
export const BROAD_LEAF = 4_096;

/** Sequence numbers of the family one statement of a walk covers. */
export const WALK_STEP = 8_192;

/**
 * Sequence numbers a walk covers before it stops looking and sorts every match instead: the
 * matches of a broad leaf can still sit at the end of arrival order. At ~1 µs a probe this bounds
 * what the walk can waste to tens of milliseconds, about what sorting ~100k matches costs.
 */
export const WALK_LIMIT = 65_536;

/**
 * Records of the family the first look covers per record wanted: a leaf that lets more than one
 * in this many through fills a window at the family's start without counting its matches.
 */
export const FIRST_LOOK_PER_RECORD = 25;

/**
 * The first `count` records a leaf lets through, in arrival order, for a read that wants no
 * more. First a look at the family's first records (`firstLook`); failing that, a leaf with
 * few matches is read whole and sorted. A broad one (a range, a wildcard, an
 * equality on a common value) is not: its index lists its matches by value, so taking the first
 * ten in arrival order had meant reading and sorting all of them (`bytes > 100` on 100k events:
 * 54 ms for ten records). The family's records are walked in arrival order instead, each probed
 * for a match through the (seq, path) index, until the window is full; with a share p of
 * records matching, that is about count / p probes.
 */
export function* firstInArrivalOrder(
  leaf: LeafTree,
  family: string,
  count: number,
  clock: SliceClock,
  dialect: SqlDialect,
): PlanPart<number[]> {
  const first = yield* firstLook(leaf, family, count, dialect);
  if (first.length === count) return first;
  const all = leafSeqs(leaf, family, dialect);
  // DISTINCT: a list can hold one value twice, and a leaf's conditions are several SELECTs.
  const sorted = { sql: `SELECT DISTINCT seq FROM (${all.sql}) AS m ORDER BY seq LIMIT ?`, params: [...all.params, count] };
  const { broad, found } = yield* probeLeaf(all, BROAD_LEAF, dialect);
  // A narrow leaf's matches, if the probe did not bring them, are sorted where they are.
  if (!broad) return found ? [...new Set(found)].sort((a, b) => a - b).slice(0, count) : yield* seqs(sorted);
  return (yield* walk(leaf, family, count, clock, dialect)) ?? (yield* seqs(sorted));
}

/**
 * The leaf's matches among the family's first `count` × FIRST_LOOK_PER_RECORD records (at most
 * WALK_STEP), each probed as the walk probes: when there are `count` of them, they are the
 * window, found in one statement. The probe that tells a broad leaf from a narrow one counts up
 * to BROAD_LEAF + 1 matches first, which for `bytes > 100` on 100k events took PostgreSQL
 * 8.5–9.5 ms of the 16 ms answer. A leaf that lets few through wastes this one statement.
 */
function* firstLook(leaf: LeafTree, family: string, count: number, dialect: SqlDialect, negated = false): PlanPart<number[]> {
  const test = passing(leaf, family, dialect, negated);
  return yield* seqs({
    sql: `SELECT r.seq FROM (SELECT seq, id FROM inventory_record WHERE family = ? ORDER BY seq LIMIT ?) AS r WHERE ${test.sql} ORDER BY r.seq LIMIT ?`,
    params: [family, Math.min(count * FIRST_LOOK_PER_RECORD, WALK_STEP), ...test.params, count],
  });
}

/**
 * The first `count` records a leaf does not let through (`not` of it), in arrival order, by the
 * same walk: `not` of a leaf that matches a fifth of the family let the other four fifths
 * through, and taking ten of them had meant reading all of the leaf's matches first (`not` of
 * an equality on 100k events: 15 ms). No probe first: the fewer records the leaf lets through,
 * the sooner the walk ends, and the probe alone cost PostgreSQL 8.5–9.5 ms. Undefined, for the
 * caller to take the complement of the leaf's matches, when the walk finds too few within
 * `WALK_LIMIT` (the leaf lets nearly every record through).
 */
export function* firstNotInArrivalOrder(
  leaf: LeafTree,
  family: string,
  count: number,
  clock: SliceClock,
  dialect: SqlDialect,
): PlanPart<number[] | undefined> {
  const first = yield* firstLook(leaf, family, count, dialect, true);
  if (first.length === count) return first;
  return yield* walk(leaf, family, count, clock, dialect, true);
}

/** The first `count` matches (or, `negated`, records that do not match) by walking the family in arrival order, or undefined past `WALK_LIMIT`. */
function* walk(
  leaf: LeafTree,
  family: string,
  count: number,
  clock: SliceClock,
  dialect: SqlDialect,
  negated = false,
): PlanPart<number[] | undefined> {
  const [first] = yield* seqs({ sql: 'SELECT min(seq) AS seq FROM inventory_record WHERE family = ?', params: [family] });
  const [last] = yield* seqs({ sql: 'SELECT max(seq) AS seq FROM inventory_record WHERE family = ?', params: [family] });
  const found: number[] = [];
  const test = passing(leaf, family, dialect, negated);
  for (let from = first; from <= last && found.length < count; from += WALK_STEP) {
    if (from - first >= WALK_LIMIT) return undefined;
    const step = yield* seqs({
      sql: `SELECT r.seq FROM inventory_record r WHERE r.family = ? AND r.seq >= ? AND r.seq < ? AND ${test.sql} ORDER BY r.seq LIMIT ?`,
      params: [family, from, from + WALK_STEP, ...test.params, count - found.length],
    });
    found.push(...step);
    if (clock.sliceSpent) yield PAUSE;
  }
  return found;
}

/** Whether record `r` passes the leaf, or (`negated`) does not. */
function passing(leaf: LeafTree, family: string, dialect: SqlDialect, negated: boolean): SqlFragment {
  const matches = matchesRecord(leaf, family, dialect);
  return negated ? { sql: `NOT (${matches.sql})`, params: matches.params } : matches;
}

/**
 * Whether record `r` passes the leaf: a probe of its own values (or its id). A scalar subquery,
 * run per record: PostgreSQL turned an OR of EXISTS into a hash of every match of the path
 * (100k for `bytes > 100`, 94 ms) built before the first record was looked at.
 */
function matchesRecord(leaf: LeafTree, family: string, dialect: SqlDialect): SqlFragment {
  if (leaf.kind === 'ids') return leaf.predicate;
  const values = dialect.valuesOfRecord(family, leaf.path);
  const passes = leaf.anyOf.map((condition) => `(${condition.sql})`).join(' OR ');
  return {
    sql: `(SELECT 1 FROM ${values.sql} AND (${passes}) LIMIT 1) IS NOT NULL`,
    params: [...values.params, ...leaf.anyOf.flatMap((condition) => condition.params)],
  };
}
