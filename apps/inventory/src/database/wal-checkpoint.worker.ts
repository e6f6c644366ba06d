import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** What `WalCheckpointer` hands its worker. */
export interface WalCheckpointWorkerData {
  path: string;
  intervalMs: number;
}

/** What the worker tells `WalCheckpointer`: why it stopped checkpointing. */
export interface WalCheckpointFailure {
  failed: string;
}

/**
 * The worker side of `WalCheckpointer`: its own connection to the service's SQLite file, which
 * copies committed WAL frames into the database file every `intervalMs`. PASSIVE never takes a
 * lock a writer waits for: the service's connection commits on while a checkpoint runs.
 */
const { path, intervalMs } = workerData as WalCheckpointWorkerData;
let db: Database.Database | undefined;
let timer: NodeJS.Timeout | undefined;

function stop(): void {
  clearInterval(timer);
  db?.close();
  parentPort!.close();
}

// A SqliteError does not cross to the main thread intact (it arrives without its message), so
// failures are sent as text.
function fail(error: unknown): void {
  const failure: WalCheckpointFailure = { failed: error instanceof Error ? error.message : String(error) };
  parentPort!.postMessage(failure);
  stop();
}

try {
  db = new Database(path, { fileMustExist: true });
  // The WAL is synced before frames are copied and the database file after: a checkpoint cut off
  // by a crash or a power loss is redone from the WAL, which stays until the copy is synced.
  db.pragma('synchronous = NORMAL');
  // A checkpoint reads frames from the WAL and writes pages; it needs no cache of its own to speak of.
  db.pragma('cache_size = -1000');
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  timer = setInterval(() => {
    try {
      checkpoint.run();
    } catch (error) {
      // SQLITE_BUSY (another connection's checkpoint under way) is retried at the next tick.
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') fail(error);
    }
  }, intervalMs);
} catch (error) {
  fail(error);
}

parentPort!.on('message', (message: unknown) => {
  if (message === 'stop') stop();
});
