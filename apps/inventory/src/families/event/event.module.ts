import { Module } from '@nestjs/common';
import { CrudModule, FamilyDefinition } from '@inventory/crud';
import { EventRecord } from './event.schema';

/**
 * Events arrive in volume, so they declare only `source`, the one field the specification gives
 * them beyond `id` and what clients filter them by: ingest writes one value row per event where
 * indexing every path wrote about fifteen. Filters and order on any other path still answer
 * exactly; the first one on a path teaches the family that path (LearnedValueIndex: rows built in
 * the background, used once complete, surviving restarts, at most 32 learned paths), and until its
 * rows are complete, or past the cap, the family is scanned in memory. `timestamp` was declared
 * too until issue 10 measured what it cost: a third of the CPU of batch ingest (README
 * "Performance"), paid by every deployment whether or not a client ever windows by time; one that
 * does teaches it with its first such query.
 */
export const EVENT_FAMILY: FamilyDefinition = {
  path: 'event',
  index: 'event',
  resourceName: 'Event',
  schema: EventRecord,
  auth: 'jwt',
  indexedPaths: ['source'],
};

@Module({ imports: [CrudModule.forFeature(EVENT_FAMILY)] })
export class EventModule {}
