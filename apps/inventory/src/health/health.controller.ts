import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@inventory/auth';
import { RecordStore } from '@inventory/crud';

@Controller('health')
@Public()
@ApiTags('Health')
export class HealthController {
  constructor(private readonly store: RecordStore) {}

  /** 200 when the database answers; otherwise the store's error becomes a 503 envelope. */
  @Get()
  @ApiOperation({ summary: 'Liveness and database reachability' })
  async health(): Promise<{ status: 'ok' }> {
    await this.store.ping();
    return { status: 'ok' };
  }
}
