import { Condition, FieldPath, OrderTerm } from '../core/query/query.types';
import { RecordStore } from './record-store';
import { allLearned, learnablePath, LearnedPaths, MAX_LEARNED_PATHS, NO_LEARNED_PATHS, ValueIndex } from './value-index';

/** Records per page of a build. */
export const LEARN_CHUNK = 500;

/**
 * How long one build transaction may hold the event loop (SQLite): as long as the rest of the
 * last turn of the loop took, within these bounds. Idle, builds run in 5 ms slices; under load,
 * a build takes about half of each turn rather than one page per turn, however long the turns of
 * the queries that scan while it is missing (at 1M records with ten clients querying the path, a
 * page per turn did not finish within a minute; README "Performance").
 */
export const BUILD_SLICE_MS = { min: 5, max: 100 };

/**
 * A family's value index as queries may use it: its declaration plus the learned paths whose rows
 * are complete (see `LearnedPaths`). A query on a path outside it learns the path: from then on
 * every write indexes it, its rows for older records are built in the background in chunks, and
 * once they are complete queries on it use SQL. Until then, and past the cap, such a query is
 * answered by the in-memory evaluator, exactly as before.
 */
export class LearnedValueIndex {
  private learned: LearnedPaths = NO_LEARNED_PATHS;
  private readable: ValueIndex;
  private readonly builds = new Map<string, Promise<void>>();

  constructor(
    private readonly store: RecordStore,
    private readonly family: string,
    readonly declared: ValueIndex,
    private readonly cap = MAX_LEARNED_PATHS,
  ) {
    this.readable = declared;
  }

  /** The index queries may use now: declared and ready paths. */
  get current(): ValueIndex {
    return this.readable;
  }

  get paths(): LearnedPaths {
    return this.learned;
  }

  /** At start-up: reads the learned paths and finishes the builds a stopped process left. */
  async start(): Promise<void> {
    this.apply(await this.store.learnedPaths(this.family));
    for (const path of this.learned.building) this.build(path);
  }

  /**
   * The index for a query on `where` and `order`. When it names a path the index does not hold,
   * the stored setting is read again first (another process may have learned or built it), and
   * a path nobody learned yet is learned, within the cap. A path named by `reg_exp` is learned
   * too: the plan matches a pattern once per distinct value of an indexed path (pattern-leaf.ts).
   */
  async forQuery(where: Condition | undefined, order: readonly OrderTerm[]): Promise<ValueIndex> {
    const wanted = new Set<string>();
    const want = (path: FieldPath): void => {
      if (this.readable.covers(path)) return;
      const dotted = learnablePath(path);
      if (dotted !== undefined) wanted.add(dotted);
    };
    if (where) visitPaths(where, want);
    for (const term of order) want(term.path);
    if (wanted.size === 0) return this.readable;
    this.apply(await this.store.learnedPaths(this.family));
    for (const path of wanted) {
      if (this.readable.covers(path.split('.'))) continue;
      const all = allLearned(this.learned);
      if (!all.includes(path) && all.length < this.cap) this.apply(await this.store.learnPath(this.family, path, this.cap));
      if (this.learned.building.includes(path)) this.build(path);
    }
    return this.readable;
  }

  /** Resolves once every build this process runs has ended (tests; a failed build is retried by the next query). */
  async settled(): Promise<void> {
    while (this.builds.size > 0) await Promise.all([...this.builds.values()]);
  }

  private apply(learned: LearnedPaths): void {
    this.learned = learned;
    this.readable = this.declared.withPaths(learned.ready);
  }

  private build(path: string): void {
    if (this.builds.has(path)) return;
    const run = (async () => {
      // Every record above this seq was written after the path was learned, so with its rows.
      const untilSeq = await this.store.lastSeq(this.family);
      let afterSeq = 0;
      let sliceMs = BUILD_SLICE_MS.min;
      for (;;) {
        const slice = sliceMs;
        const last = await oneSliceAtATime(() => this.store.buildLearnedRows(this.family, path, afterSeq, untilSeq, LEARN_CHUNK, slice));
        if (last === undefined) break;
        afterSeq = last;
        const turnStarted = performance.now();
        await new Promise((resolve) => setImmediate(resolve));
        sliceMs = Math.min(BUILD_SLICE_MS.max, Math.max(BUILD_SLICE_MS.min, performance.now() - turnStarted));
      }
      this.apply(await this.store.learnedPathReady(this.family, path));
    })()
      .catch(() => undefined)
      .finally(() => this.builds.delete(path));
    this.builds.set(path, run);
  }
}

/**
 * The build slices of every path and family of the process, one after another: builds started
 * together (a query naming 17 new paths starts 17) would otherwise each take a slice of the same
 * turn, and their group commit would run them back to back (1.7 s with /health waiting, measured
 * by the hostile-load test).
 */
let lastSlice: Promise<unknown> = Promise.resolve();

function oneSliceAtATime<T>(slice: () => Promise<T>): Promise<T> {
  const run = lastSlice.then(slice, slice);
  lastSlice = run.catch(() => undefined);
  return run;
}

function visitPaths(condition: Condition, visit: (path: FieldPath) => void): void {
  switch (condition.kind) {
    case 'and':
    case 'or':
      for (const clause of condition.clauses) visitPaths(clause, visit);
      return;
    case 'not':
      visitPaths(condition.clause, visit);
      return;
    default:
      visit(condition.path);
  }
}
