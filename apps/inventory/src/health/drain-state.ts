import { Injectable } from '@nestjs/common';

/**
 * Whether the process is shutting down. Set by the signal handler (graceful-shutdown.ts) the
 * moment SIGTERM or SIGINT arrives, read by the readiness probe: a load balancer that polls it
 * stops sending new work while the requests in flight still finish.
 */
@Injectable()
export class DrainState {
  private drainingSince: number | undefined;

  begin(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }
}

/** The readiness probe's answer while draining: a 503 envelope, like a database that is down. */
export class DrainingError extends Error {
  readonly httpStatus = 503;
  readonly publicMessage = 'Service unavailable: shutting down';

  constructor() {
    super('draining');
    this.name = 'DrainingError';
  }
}
