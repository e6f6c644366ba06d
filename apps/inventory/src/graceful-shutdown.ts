import { INestApplication, Logger } from '@nestjs/common';
import { DrainState } from './health/drain-state';

/** Connections already queued in the kernel when the signal arrives are still accepted for this long. */
const DRAIN_MS = 1000;
/** Past this, the process exits anyway: within the 10 s an orchestrator usually grants. */
const DEADLINE_MS = 9000;

/**
 * SIGTERM/SIGINT: report not ready, keep serving briefly (closing the listener at once would
 * reset connections that the kernel accepted but the busy event loop had not yet taken), then
 * close the app, which waits for requests in flight and closes the database, and exit 0.
 */
export function exitGracefullyOnSignals(app: INestApplication): void {
  const logger = new Logger('Shutdown');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Readiness answers 503 from this moment: load balancers stop routing new work here.
    app.get(DrainState).begin();
    logger.log(`${signal}: finishing requests in flight`);
    setTimeout(() => {
      logger.error(`still busy after ${DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, DEADLINE_MS).unref();
    setTimeout(() => {
      app
        .close()
        .then(() => process.exit(0))
        .catch((error: Error) => {
          logger.error(`shutdown failed: ${error.message}`);
          process.exit(1);
        });
    }, DRAIN_MS);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
