/** Places of arrival order between two markers: an offset counts at most this many index entries. */
export const MARKER_STRIDE = 1_024;

/**
 * The record `skip` places after the first record of `family` at or after `fromSeq`, in arrival
 * order (`skip` 0: that record itself); undefined past the family's last record.
 */
export type SeqAfter = (family: string, fromSeq: number, skip: number) => number | undefined;

/**
 * The sequence numbers at every MARKER_STRIDE-th place of a family's arrival order, learned as
 * pages at large offsets ask for them, so that such a page counts its offset from the nearest
 * marker. Counted from the family's first record, one index entry at a time, offset 999,990 of a
 * 1M-record family took 29 ms, and 0.03 ms from a marker.
 *
 * New records come after every marker, and an update keeps its record's place: the markers hold
 * until a record is removed, through this connection (`removed`) or another (whose commits
 * change the connection's `data_version`); either starts the family's markers over.
 */
export class ArrivalMarkers {
  private readonly families = new Map<string, { mark: string; seqs: number[] }>();
  private removals = 0;

  constructor(private readonly seqAfter: SeqAfter) {}

  /** Records were removed through this connection: every marker may have moved. */
  removed(): void {
    this.removals += 1;
  }

  /**
   * The sequence number of the record `offset` places into the family's arrival order, if there
   * is one; `dataVersion` is the connection's `PRAGMA data_version` now.
   */
  seqAt(family: string, offset: number, dataVersion: number): number | undefined {
    const mark = `${this.removals}:${dataVersion}`;
    let known = this.families.get(family);
    if (known?.mark !== mark) {
      known = { mark, seqs: [] };
      // Families are few (one per module); a stale entry is replaced, never kept beside.
      this.families.set(family, known);
    }
    const nearest = Math.floor(offset / MARKER_STRIDE);
    while (known.seqs.length <= nearest) {
      const previous = known.seqs.at(-1);
      const next = previous === undefined ? this.seqAfter(family, 0, 0) : this.seqAfter(family, previous, MARKER_STRIDE);
      if (next === undefined) return undefined;
      known.seqs.push(next);
    }
    const skip = offset - nearest * MARKER_STRIDE;
    return skip === 0 ? known.seqs[nearest] : this.seqAfter(family, known.seqs[nearest], skip);
  }
}
