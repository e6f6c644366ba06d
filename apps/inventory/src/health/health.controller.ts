import { All, Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@inventory/auth';
import { RecordStore } from '@inventory/crud';
import { MethodNotAllowedError } from '@inventory/http';
import type { Request } from 'express';

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

  @All()
  @ApiExcludeEndpoint()
  methodNotAllowed(@Req() request: Request): never {
    throw new MethodNotAllowedError(request.method, ['GET']);
  }
}
