import { Module } from '@nestjs/common';
import { CrudModule, FamilyDefinition } from '@inventory/crud';
import { EventRecord } from './event.schema';

/**
 * Events arrive in volume and are filtered by where and when they came from, so only those two
 * paths are declared: ingest writes two value rows per event instead of about fifteen. Filters
 * and order on any other path still answer exactly; the first one on a path teaches the family
 * that path (LearnedValueIndex: rows built in the background, used once complete, at most 32
 * learned paths), and until its rows are complete, or past the cap, the family is scanned in memory.
 */
export const EVENT_FAMILY: FamilyDefinition = {
  path: 'event',
  index: 'event',
  resourceName: 'Event',
  schema: EventRecord,
  auth: 'jwt',
  indexedPaths: ['source', 'timestamp'],
};

@Module({ imports: [CrudModule.forFeature(EVENT_FAMILY)] })
export class EventModule {}
