import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { EventRecord } from './event.schema';

@Module({
  imports: [CrudModule.forFeature({ path: 'event', index: 'event', resourceName: 'Event', schema: EventRecord, auth: 'jwt' })],
})
export class EventModule {}
