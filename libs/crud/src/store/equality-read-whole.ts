import type { RecordSelection, StoredRow } from './record-selection';
import { JoinedRecords, JoinedRefusal, READ_PAGE_SIZE } from './record-store';
import type { SqlFragment } from './where-compiler';

/** How a store reads the one row of joined texts of a statement (as `joinedRecordsOf` takes it), and a selection page by page. */
export interface WholeReads {
  joined(fragment: SqlFragment): Promise<JoinedRecords | JoinedRefusal>;
  paged(selection: RecordSelection): AsyncIterable<StoredRow[]>;
}

/**
 * `RecordStore.readWhole` for both stores: an equality on one value in arrival order (W3, W3U:
 * `equalityRows` in the selection plan), whole, from the start and without a count, is read as one
 * row of joined texts (`joinedDocsSql`, `postgresJoinedDocsSql`, where the figures are) and
 * answered so unless its records came out of order; more than a page of them is read page by
 * page without that statement again. Any other read is read page by page.
 */
export async function readEqualityWhole(
  selection: RecordSelection,
  reads: WholeReads,
): Promise<JoinedRecords | AsyncIterable<StoredRow[]>> {
  const { spec } = selection;
  const fragment = spec.offset === 0 && spec.count === undefined ? selection.equalityRows(READ_PAGE_SIZE + 1) : undefined;
  if (fragment) {
    spec.budget?.check();
    const joined = await reads.joined(fragment);
    if (joined instanceof JoinedRecords) return joined;
    if (joined === 'over a page') selection.equalityOverAPage = true;
  }
  return reads.paged(selection);
}
