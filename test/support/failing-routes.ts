import { Controller, Get, Module } from '@nestjs/common';
import { Public } from '@inventory/auth';
import { StoreUnavailableError } from '@inventory/crud';

/** Routes that fail on purpose, as a bug or a lost database would: only tests register them. */
@Controller('test-only/fail')
@Public()
class FailingController {
  @Get('unexpected')
  unexpected(): never {
    throw new Error('SQLITE_ERROR near "FROM": SELECT secret FROM inventory_record');
  }

  @Get('store-unavailable')
  storeUnavailable(): never {
    throw new StoreUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  }
}

@Module({ controllers: [FailingController] })
export class FailingRoutesModule {}
