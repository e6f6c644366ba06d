import type { AuthSchemeName } from '@inventory/auth';
import { RecordSchema } from '../core/validation/record-validator';

/** Everything that makes one resource family: the only input `CrudModule.forFeature` needs. */
export interface FamilyDefinition {
  /** Base route, e.g. `type/network-link`. */
  path: string;
  /** Name of the index the records live in, e.g. `network-link-type`. */
  index: string;
  /** Display name used at the start of messages, e.g. `Network link type`. */
  resourceName: string;
  /** class-validator class of the documented fields; undeclared fields are additional data. */
  schema: RecordSchema;
  auth: AuthSchemeName;
  /**
   * Dotted paths (as in queries) whose values the value index holds, each with everything below
   * it. Omitted: every path. Filters and order on any other path still answer exactly, but by
   * scanning the family in memory instead of one index lookup; declaring only the filtered paths
   * makes writes of a high-volume family several times cheaper.
   */
  indexedPaths?: readonly string[];
}
