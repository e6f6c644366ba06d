import { JsonObject, JsonValue } from '../core/query/query.types';
import { topLevelField } from '../core/text/top-level-field';

/**
 * Stored records reduced to the one top-level field `path` starts with, which is all a path's
 * value rows are built from (`indexedValues` walks nothing else): a learned path's build reads
 * that field out of each text instead of parsing the whole record.
 */
export function docsForPath(rows: readonly { seq: number | string; doc: string }[], path: string): { seq: number; doc: JsonObject }[] {
  const [first] = path.split('.', 1);
  return rows.map(({ seq, doc }) => {
    const value = topLevelField(doc, first) as JsonValue | undefined;
    // A computed key: `__proto__` too becomes an own field, as JSON.parse makes it. PostgreSQL's
    // BIGINT `seq` comes as text; a sequence number stays far below 2^53.
    return { seq: Number(seq), doc: value === undefined ? {} : { [first]: value } };
  });
}
