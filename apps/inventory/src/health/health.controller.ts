import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@inventory/auth';
import { RecordStore } from '@inventory/crud';
import { DrainingError, DrainState } from './drain-state';

/**
 * `/health` is the contract's check (docs/routes.md); `/health/live` and `/health/ready` are the
 * liveness and readiness probes an orchestrator polls (README "Probes").
 */
@Controller('health')
@Public()
@ApiTags('Health')
export class HealthController {
  constructor(
    private readonly store: RecordStore,
    private readonly drain: DrainState,
  ) {}

  /** 200 when the database answers; otherwise the store's error becomes a 503 envelope. */
  @Get()
  @ApiOperation({ summary: 'Database reachability: 200 when the database answers, else 503' })
  async health(): Promise<{ status: 'ok' }> {
    await this.store.ping();
    return { status: 'ok' };
  }

  /** No database: a database outage must not make an orchestrator restart every process. */
  @Get('live')
  @ApiOperation({ summary: 'Liveness: 200 while the process runs and its event loop answers' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 503 from the moment SIGTERM arrives, so no new work is routed to a process that is leaving. */
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: 200 when the database answers and the process is not shutting down, else 503' })
  async ready(): Promise<{ status: 'ok' }> {
    if (this.drain.draining) throw new DrainingError();
    await this.store.ping();
    if (this.drain.draining) throw new DrainingError();
    return { status: 'ok' };
  }
}
