import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WalCheckpointFailure, WalCheckpointWorkerData } from './wal-checkpoint.worker';

/** How often the worker copies the WAL's new frames into the database file. */
export const WAL_CHECKPOINT_INTERVAL_MS = 1000;

/**
 * Copies the SQLite WAL into the database file from a worker thread, so that the event loop's
 * commits do not. The service's connection checkpoints by itself once the WAL holds
 * `wal_autocheckpoint` frames, inside the commit that crossed the line: at 10,000 frames it
 * copied ~40 MB and synced twice while every request waited (W2 p99 104 ms; W2 and W4 left
 * 10–20 % of the service's core idle, and ran 25 % faster with checkpoints put off, README
 * "Performance"). With this worker, the frames are mostly copied when that checkpoint comes:
 * the service's checkpoint copies the tail, syncs, and lets the next commit restart the WAL from
 * its start — which a checkpoint of another connection cannot do while commits keep coming, so
 * it stays, every 40,000 frames (~160 MB), as the backstop. Batch ingest (W4): +10 % with the
 * worker at 10,000 frames, +5 % more at 40,000, where the service's core went from 92–93 % to
 * 97–98 % busy.
 *
 * If the worker dies, nothing is lost: the service's own checkpoints carry on as before.
 */
export class WalCheckpointer {
  private readonly ended: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  }

  static start(path: string, onError: (error: Error) => void, intervalMs = WAL_CHECKPOINT_INTERVAL_MS): WalCheckpointer {
    const workerData: WalCheckpointWorkerData = { path, intervalMs };
    const worker = new Worker(WORKER_FILE, { ...WORKER_OPTIONS, workerData });
    worker.on('message', ({ failed }: WalCheckpointFailure) => onError(new Error(failed)));
    worker.on('error', onError);
    // Checkpoints never keep the process alive: a service that is done exits. (After the
    // listeners: a 'message' listener refs the worker's port again.)
    worker.unref();
    return new WalCheckpointer(worker);
  }

  /** Closes the worker's connection; resolves once the thread has ended. */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    await this.ended;
  }
}

/**
 * The worker's module beside this one: compiled JavaScript in production; in the tests, which
 * run the TypeScript sources, the worker compiles it with ts-node (a dev dependency).
 */
const WORKER_FILE = join(__dirname, `wal-checkpoint.worker${extname(__filename)}`);
const WORKER_OPTIONS =
  extname(__filename) === '.ts'
    ? { execArgv: ['--require', 'ts-node/register/transpile-only'] }
    : // The worker holds a connection and a timer, no data: a small heap keeps its isolate from
      // adding to the service's RSS (a full read of 1M records must stay under 300 MB). Not under
      // ts-node, whose compiler needs a heap of its own.
      { resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 24 } };
