import { afterQuietTurn } from './quiet-turn';
import { StoredRow } from './record-selection';

/** The stored rows of the given keys (pairwise: `families[i]`, `ids[i]`), with their family, in any order. */
export type ReadRecordsNow = (families: string[], ids: string[]) => Promise<(StoredRow & { family: string })[]>;

interface Waiting {
  family: string;
  id: string;
  resolve: (row: StoredRow | undefined) => void;
  reject: (error: unknown) => void;
}

/** A statement takes at most this many keys; more lookups in one turn make several statements. */
export const GROUPED_READ_MAX_KEYS = 1000;

/**
 * Lookups of one record by its key that arrive together go to the database as one statement.
 * On PostgreSQL each statement is a write to a backend's socket that wakes that backend on
 * another core, and a round trip: `perf` put 28 % of the service's CPU on W1 in pg's `submit`
 * and its `writev`. Ten clients reading by id, ten statements a turn, become one (README
 * "Performance", W1 on PostgreSQL).
 *
 * "Together" is one turn of the event loop and the turns after it, until a turn brings none
 * (`afterQuietTurn`, as for grouped writes; at most 4 turns): ten clients answered together
 * send their next lookups over a few turns. A statement per turn gave PostgreSQL W1 8.0–9.2k
 * req/s, one per quiet turn 9.6–10.8k (alternated twice). A lone lookup still goes at the
 * first turn.
 *
 * A lookup by primary key cannot run long, so a grouped one is not cancelled with its request's
 * budget; the request checks its budget before and after, as with any statement.
 */
export class GroupedRecordReads {
  private waiting: Waiting[] = [];

  constructor(private readonly readNow: ReadRecordsNow) {}

  read(family: string, id: string): Promise<StoredRow | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.push({ family, id, resolve, reject }) === 1)
        afterQuietTurn(
          () => this.waiting.length,
          () => this.flush(),
        );
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (let start = 0; start < waiting.length; start += GROUPED_READ_MAX_KEYS) {
      void this.readGroup(waiting.slice(start, start + GROUPED_READ_MAX_KEYS));
    }
  }

  private async readGroup(group: Waiting[]): Promise<void> {
    let rows: (StoredRow & { family: string })[];
    try {
      rows = await this.readNow(
        group.map((lookup) => lookup.family),
        group.map((lookup) => lookup.id),
      );
    } catch (error) {
      for (const lookup of group) lookup.reject(error);
      return;
    }
    const byFamily = new Map<string, Map<string, StoredRow>>();
    for (const { family, seq, id, doc } of rows) {
      let ids = byFamily.get(family);
      if (!ids) byFamily.set(family, (ids = new Map<string, StoredRow>()));
      ids.set(id, { seq, id, doc });
    }
    for (const lookup of group) lookup.resolve(byFamily.get(lookup.family)?.get(lookup.id));
  }
}
