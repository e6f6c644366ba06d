import { QueryBudget } from '../core/query/query-budget';
import { Condition, FieldPath, OrderTerm } from '../core/query/query.types';
import { RecordStore } from './record-store';
import { allLearned, learnablePath, LearnedPaths, MAX_LEARNED_PATHS, NO_LEARNED_PATHS, ValueIndex } from './value-index';

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
 * once they are complete queries on it use SQL. The service's queries wait for that
 * (`whenBuilt`); past the cap, or where a build failed, the in-memory evaluator answers exactly.
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
    // A build never rejects (a failed one is retried by the next query), so nothing awaits these.
    for (const path of this.learned.building) void this.build(path);
  }

  /**
   * The index for a query on `where` and `order`. When it names a path the index does not hold,
   * the stored setting is read again first (another process may have learned or built it), and
   * a path nobody learned yet is learned, within the cap. A path named by `reg_exp` is learned
   * too: the plan matches a pattern once per distinct value of an indexed path (pattern-leaf.ts).
   */
  async forQuery(where: Condition | undefined, order: readonly OrderTerm[]): Promise<ValueIndex> {
    // The builds run on without this caller (they never reject): it plans on what is ready now.
    void (await this.learn(where, order));
    return this.readable;
  }

  /**
   * As `forQuery`, once the builds of the paths the query names have ended: a query on a path
   * being built would scan every record of the family in memory, as long as the build itself
   * takes (1M events on SQLite: 6.6–7.1 s against 7.3 s), and ten clients querying it meanwhile
   * scanned ten times over, so that none was answered within ten seconds (README
   * "Performance"). Waiting leaves the build the machine. Past `budget`, its error.
   */
  async whenBuilt(where: Condition | undefined, order: readonly OrderTerm[], budget?: QueryBudget): Promise<ValueIndex> {
    const builds = await this.learn(where, order);
    if (builds.length > 0) await withinBudget(Promise.all(builds), budget);
    return this.readable;
  }

  /** Learns the paths the query names that the index does not hold; answers the builds of those not ready. */
  private async learn(where: Condition | undefined, order: readonly OrderTerm[]): Promise<Promise<void>[]> {
    const wanted = new Set<string>();
    const want = (path: FieldPath): void => {
      if (this.readable.covers(path)) return;
      const dotted = learnablePath(path);
      if (dotted !== undefined) wanted.add(dotted);
    };
    if (where) visitPaths(where, want);
    for (const term of order) want(term.path);
    if (wanted.size === 0) return [];
    this.apply(await this.store.learnedPaths(this.family));
    const builds: Promise<void>[] = [];
    for (const path of wanted) {
      if (this.readable.covers(path.split('.'))) continue;
      const all = allLearned(this.learned);
      if (!all.includes(path) && all.length < this.cap) this.apply(await this.store.learnPath(this.family, path, this.cap));
      if (this.learned.building.includes(path)) builds.push(this.build(path));
    }
    return builds;
  }

  /** Resolves once every build this process runs has ended (tests; a failed build is retried by the next query). */
  async settled(): Promise<void> {
    while (this.builds.size > 0) await Promise.all([...this.builds.values()]);
  }

  private apply(learned: LearnedPaths): void {
    this.learned = learned;
    this.readable = this.declared.withPaths(learned.ready);
  }

  private build(path: string): Promise<void> {
    const running = this.builds.get(path);
    if (running) return running;
    const run = (async () => {
      // Every record above this seq was written after the path was learned, so with its rows.
      const untilSeq = await this.store.lastSeq(this.family);
      let afterSeq = 0;
      let sliceMs = BUILD_SLICE_MS.min;
      for (;;) {
        const slice = sliceMs;
        const last = await oneSliceAtATime(() =>
          this.store.buildLearnedRows(this.family, path, afterSeq, untilSeq, this.store.learnedPageRecords, slice),
        );
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
    return run;
  }
}

/** Waits for `work` while `budget` lasts; once it stopped (time, or the client gone), throws its error. */
async function withinBudget(work: Promise<unknown>, budget: QueryBudget | undefined): Promise<void> {
  if (!budget) {
    await work;
    return;
  }
  let undoStop: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (undoStop = budget.onStop(resolve)));
  try {
    await Promise.race([work, stopped]);
  } finally {
    undoStop?.();
  }
  budget.check();
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
