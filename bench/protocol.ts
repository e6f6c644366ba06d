/** Messages between run.ts (the orchestrator) and load.ts (the load generator process). */

/**
 * W3 filters on `source` (declared by events), W3U on `flow` (not declared). W4S is W4 with each
 * new record's `source` scattered over 2^24 addresses instead of climbing with its number, so
 * that a batch inserts at ~1,000 places of the value index, as real sources would. W4R scatters
 * the id instead (random ids, as clients that make UUIDs send): ~1,000 places of the id index.
 */
export type Workload = 'W1' | 'W2' | 'W3' | 'W3U' | 'W4' | 'W4S' | 'W4R';

export type LoadRequest =
  /**
   * Precompute the expected answer sizes for `records` preloaded records, `hits` of them sharing
   * each `source` and `flow` value (so each W3/W3U answer's matches), preloaded in scattered
   * order (`--scattered`) or not: the answer check then expects any of a group's records first.
   */
  | { type: 'init'; records: number; hits: number; scattered: boolean }
  /**
   * One wrk window against `url` (warm-up or measured: the load generator does not care);
   * `serverPid`'s CPU is sampled alongside wrk's, and `idlePid`'s, the other server on the same
   * core, which should use none of it.
   */
  | {
      type: 'measure';
      url: string;
      token: string;
      workload: Workload;
      seconds: number;
      connections: number;
      batch: number;
      serverPid: number;
      idlePid: number;
      /**
       * Records the server holds, when fewer than `init`'s: reads pick only among them (the
       * scaling run's 10k service, measured beside its 1M one; the first records are the same).
       */
      records?: number;
      /** W3/W3U: every request the same query (`--w3-one-query`), not one picked at random. */
      oneQuery?: boolean;
    }
  /**
   * Preload records [from, to) with POSTs of `batch` records, `inFlight` requests at a time; a
   * family's first load (from 0) in `scatteredArrival(to)`'s order when `init` said scattered.
   */
  | { type: 'preload'; url: string; token: string; from: number; to: number; batch: number; inFlight: number }
  /** W5: one streamed GET of all `records` records. */
  | { type: 'readAll'; url: string; token: string; records: number };

export type LoadReply =
  | { type: 'ready' }
  | { type: 'preloaded'; seconds: number }
  | { type: 'measured'; measurement: Measurement }
  | { type: 'failed'; error: string };

/** CPU use over one wrk window, sampled from /proc. */
export interface WindowCpu {
  /** % of one core: the server under load, and the load generator (wrk) on the other core. */
  server?: number;
  generator?: number;
  /**
   * % of one core the other server used, idle on the server's core: work it left over (a full
   * collection seconds after its own window) taken from this one. It should be near 0.
   */
  idleServer?: number;
  /**
   * % of the window the server's main thread was ready to run but waited for its core, taken by
   * other processes (on PostgreSQL, the database's backends) or by its own helper threads (V8's
   * collector). `server` counts every thread of the process, so the main thread slept for at
   * most 100 % minus `server` minus this.
   */
  waitedForCore?: number;
  /** The server's read system calls and KB read per second of the window (`readCounters`); report.ts makes them per answer. */
  readCalls?: number;
  readKb?: number;
  /** KB per second the kernel fetched from the disk for the server (`ReadCounters.fromDisk`). */
  diskKb?: number;
  /** % of all the machine's cores: busy, whatever ran on them (PostgreSQL included); and given by the hypervisor to others (steal: a slower machine, not work). */
  machine?: number;
  stolen?: number;
  /** % of all the machine's cores idle while a disk operation was outstanding. */
  ioWait?: number;
}

export interface Measurement {
  /** Answers with the expected status and byte length (records, for W5). */
  correct: number;
  /** Answers that came back but were not right. */
  wrong: number;
  /** Connection errors and timeouts as wrk counts them. */
  errors: number;
  timeouts: number;
  seconds: number;
  /** correct / seconds */
  perSecond: number;
  /** Latency in ms; for W5, p50 is the time to the first byte and p99 the whole read. */
  p50: number;
  p99: number;
  /** CPU use over the window (none for W5's reads). */
  cpu?: WindowCpu;
  /** The first wrong answer, abridged, to say what went wrong. */
  firstWrong?: string;
}
