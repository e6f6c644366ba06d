import { performance } from 'node:perf_hooks';

/**
 * How long a stretch of in-memory query work may hold the event loop before it lets other
 * requests in. Short enough that `/health` answers well within a second while the heaviest
 * query runs, long enough that yielding (one `setImmediate`) costs nothing measurable.
 */
export const QUERY_SLICE_MS = 20;

/** Tells long in-memory work when it has held the event loop for a slice. */
export interface SliceClock {
  readonly sliceSpent: boolean;
}

/** A slice that never ends: for work that may not yield (inside a SQLite transaction) and for tests. */
export const ENDLESS_SLICE: SliceClock = { sliceSpent: false };

/** The query ran out of its time budget (`INVENTORY_QUERY_TIMEOUT`): 400, docs/query-language.md. */
export class QueryTimeoutError extends Error {
  readonly httpStatus = 400;

  constructor(limitMs: number) {
    super(`query stopped after ${formatSeconds(limitMs)} s: narrow the where or add a limit`);
    this.name = 'QueryTimeoutError';
  }
}

/** The client went away: nobody reads the answer, so the work stops. */
export class QueryAbortedError extends Error {
  readonly httpStatus = 400;

  constructor() {
    super('the client went away before the answer');
    this.name = 'QueryAbortedError';
  }
}

/**
 * Whether the client has gone: an `AbortSignal`, or anything that can tell it as cheaply. Only a
 * budget asked to stop work (`onStop`) listens to it.
 */
export interface ClientGone {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * What can stop a statement: a read's own budget, or (for a statement several reads share) all
 * of theirs having stopped.
 */
export type StatementStop = Pick<QueryBudget, 'onStop' | 'check'>;

/**
 * The time a read or delete may spend, and whether its client is still there. Stores call
 * `check()` between steps (SQL statements, slices of in-memory work), which throws once the
 * budget is spent or the client has gone; `onStop` lets a store cancel a statement that is
 * still running in the database at that moment.
 */
export class QueryBudget implements SliceClock {
  private readonly deadline: number;
  private sliceEnds: number;
  /** Set when an `onStop` timer fired: timers may fire a little before the deadline they aim at. */
  private expired = false;

  constructor(
    readonly limitMs: number,
    private readonly signal?: ClientGone,
    private readonly sliceMs = QUERY_SLICE_MS,
  ) {
    const now = performance.now();
    this.deadline = now + limitMs;
    this.sliceEnds = now + sliceMs;
  }

  get sliceSpent(): boolean {
    return performance.now() >= this.sliceEnds;
  }

  /** Called after the event loop had its turn. */
  startSlice(): void {
    this.sliceEnds = performance.now() + this.sliceMs;
  }

  get stopped(): boolean {
    return this.signal?.aborted === true || this.expired || performance.now() >= this.deadline;
  }

  check(): void {
    if (this.signal?.aborted) throw new QueryAbortedError();
    if (this.expired || performance.now() >= this.deadline) throw new QueryTimeoutError(this.limitMs);
  }

  /** Calls `stop` once, when the budget runs out or the client goes away; answers the undo. */
  onStop(stop: () => void): () => void {
    let done = false;
    const fire = () => {
      if (done) return;
      done = true;
      dispose();
      stop();
    };
    const timer = setTimeout(
      () => {
        this.expired = true;
        fire();
      },
      Math.max(0, this.deadline - performance.now()),
    );
    timer.unref();
    this.signal?.addEventListener('abort', fire, { once: true });
    const dispose = () => {
      done = true;
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', fire);
    };
    if (this.signal?.aborted) fire();
    return dispose;
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round((ms / 1000) * 1000) / 1000);
}
