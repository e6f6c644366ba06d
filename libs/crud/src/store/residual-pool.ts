import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { QueryBudget } from '../core/query/query-budget';
import type { ResidualAnswer, ResidualJob } from './residual-worker';

interface Pending {
  job: ResidualJob;
  budget?: QueryBudget;
  resolve: (verdicts: boolean[]) => void;
  reject: (error: unknown) => void;
  undoStop?: () => void;
}

/** Workers at most: the service's 2 cores also serve HTTP and SQLite. */
const WORKERS = 2;

/**
 * Checks pages of records against where clauses holding regular expressions, in worker
 * threads. One RE2 match cannot be interrupted, and re2js takes up to a second for one match of
 * a pattern within the caps (`(?:[ab]{0,10}){1,100}a(?:a|b){50}c`, measured), so a query of
 * many such leaves would hold the event loop for seconds however its work were sliced. Off the
 * thread, `/health` stays answered, and a query out of budget or without a client has its
 * worker terminated at once (another starts for the next job).
 */
export class ResidualPool {
  static readonly shared = new ResidualPool();

  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 1;

  /** Which `docs` pass `where`; with `textsAt`, each doc is a plain text evaluated as `{ [textsAt]: doc }`. */
  evaluate(where: string, docs: string[], budget?: QueryBudget, textsAt?: string): Promise<boolean[]> {
    return new Promise<boolean[]>((resolve, reject) => {
      const pending: Pending = { job: { id: this.nextId++, where, docs, textsAt }, budget, resolve, reject };
      pending.undoStop = budget?.onStop(() => this.stop(pending));
      this.queue.push(pending);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.running.size < WORKERS)) {
      const pending = this.queue.shift()!;
      const worker = this.idle.pop() ?? this.start();
      this.running.set(worker, pending);
      // A job under way keeps the process alive, as any I/O would; an idle worker does not.
      worker.ref();
      worker.postMessage(pending.job);
    }
  }

  private start(): Worker {
    const worker = new Worker(WORKER_FILE, WORKER_OPTIONS);
    worker.on('message', (answer: ResidualAnswer) => {
      const pending = this.running.get(worker);
      if (!pending || pending.job.id !== answer.id) return;
      this.running.delete(worker);
      worker.unref();
      this.idle.push(worker);
      this.settle(pending, answer);
      this.dispatch();
    });
    worker.on('error', (error) => this.lose(worker, error));
    worker.on('exit', () => this.lose(worker, new Error('residual worker stopped')));
    // Unreferenced after the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    return worker;
  }

  private settle(pending: Pending, answer: ResidualAnswer): void {
    pending.undoStop?.();
    if ('verdicts' in answer) pending.resolve(answer.verdicts);
    else pending.reject(new Error(`residual worker: ${answer.error}`));
  }

  /** The budget ran out or the client left: drop the job, and its worker if it was running it. */
  private stop(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued !== -1) this.queue.splice(queued, 1);
    for (const [worker, job] of this.running) {
      if (job !== pending) continue;
      this.running.delete(worker);
      void worker.terminate();
    }
    try {
      pending.budget!.check();
    } catch (error) {
      pending.reject(error);
    }
    this.dispatch();
  }

  private lose(worker: Worker, error: unknown): void {
    const idle = this.idle.indexOf(worker);
    if (idle !== -1) this.idle.splice(idle, 1);
    const pending = this.running.get(worker);
    if (!pending) return;
    this.running.delete(worker);
    pending.undoStop?.();
    pending.reject(error);
    this.dispatch();
  }
}

/**
 * The worker's module beside this one: compiled JavaScript in production; in the tests, which
 * run the TypeScript sources, the worker compiles it with ts-node (a dev dependency).
 */
const WORKER_FILE = join(__dirname, `residual-worker${extname(__filename)}`);
const WORKER_OPTIONS = extname(__filename) === '.ts' ? { execArgv: ['--require', 'ts-node/register/transpile-only'] } : {};
