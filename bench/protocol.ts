/** Messages between run.ts (the orchestrator) and load.ts (the load generator process). */

/**
 * W3 filters on `source` (declared by events), W3U on `flow` (not declared). W4S is W4 with each
 * new record's `source` scattered over 2^24 addresses instead of climbing with its number, so
 * that a batch inserts at ~1,000 places of the value index, as real sources would.
 */
export type Workload = 'W1' | 'W2' | 'W3' | 'W3U' | 'W4' | 'W4S';

export type LoadRequest =
  /** Precompute the expected answer sizes for `records` preloaded records. */
  | { type: 'init'; records: number }
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
    }
  /** Preload records [from, to) with POSTs of `batch` records, `inFlight` requests at a time. */
  | { type: 'preload'; url: string; token: string; from: number; to: number; batch: number; inFlight: number }
  /** W5: one streamed GET of all `records` records. */
  | { type: 'readAll'; url: string; token: string; records: number };

export type LoadReply =
  | { type: 'ready' }
  | { type: 'preloaded'; seconds: number }
  | { type: 'measured'; measurement: Measurement }
  | { type: 'failed'; error: string };

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
  /** CPU use over the window, % of one core: the load generator's (wrk) and the server's. */
  generatorCpu?: number;
  serverCpu?: number;
  /** % of all the machine's cores busy over the window, whatever ran on them (PostgreSQL included). */
  machineCpu?: number;
  /** % of all the machine's cores the hypervisor gave to others over the window (steal): a slower machine, not work. */
  stolenCpu?: number;
  /**
   * % of one core the other server used over the window, on the core the measured one runs on:
   * work it left over (a full collection seconds after its own window) taken from this one.
   */
  idleServerCpu?: number;
  /** The first wrong answer, abridged, to say what went wrong. */
  firstWrong?: string;
}
