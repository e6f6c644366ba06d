import { InsertOutcome, NewRecord, StoreUnavailableError } from './record-store';
import { afterQuietTurn } from './quiet-turn';
import { ValueIndex } from './value-index';

/** Inserts records of one family in one transaction, an outcome per record in order. */
export type InsertNow = (family: string, records: readonly NewRecord[], valueIndex: ValueIndex) => Promise<InsertOutcome[]>;

interface Waiting {
  records: readonly NewRecord[];
  resolve: (outcomes: InsertOutcome[]) => void;
  reject: (error: unknown) => void;
}

interface Group {
  valueIndex: ValueIndex;
  waiting: Waiting[];
  records: number;
}

/**
 * A request this large goes alone: its commit is shared by its own records already, and
 * transactions of its size committing side by side use the database's cores in parallel.
 */
export const GROUPED_REQUEST_MAX_RECORDS = 100;
/** A group takes requests until it holds this many records. */
export const GROUP_MAX_RECORDS = 1000;

/**
 * Small creates for one family go to the database together, in one transaction: on PostgreSQL a
 * commit waits for its WAL to reach the disk, and ten clients each creating one record paid ten
 * of those waits (W2 in README "Performance"). A group holds what arrives together
 * (`afterQuietTurn`); groups commit side by side (letting only one commit at a time was
 * measured slower: 2,048 against 2,678 creates/s, the commits' latency is what bounds them).
 * Nobody is answered before their group's commit.
 *
 * Each request keeps its own answer: an id sent by two requests of a group is created for the
 * first and is a duplicate for the second, as when the two commit one after the other. If the
 * shared transaction fails for any reason but an unreachable database, each request is retried
 * alone, so that one request's failure (a value the database refuses) is not its neighbours'.
 */
export class GroupedInserts {
  /** Each family's group still taking requests; every group commits once the requests stop coming. */
  private readonly open = new Map<string, Group>();

  constructor(private readonly insertNow: InsertNow) {}

  insert(family: string, records: readonly NewRecord[], valueIndex: ValueIndex): Promise<InsertOutcome[]> {
    return new Promise((resolve, reject) => {
      const request: Waiting = { records, resolve, reject };
      const open = this.open.get(family);
      // Large requests, and a request made with another index than its group's (a path was
      // just learned), go alone.
      if (records.length >= GROUPED_REQUEST_MAX_RECORDS || (open && open.valueIndex !== valueIndex)) {
        void this.alone(family, valueIndex, request);
        return;
      }
      if (open && open.records + records.length <= GROUP_MAX_RECORDS) {
        open.waiting.push(request);
        open.records += records.length;
        return;
      }
      // No group, or a full one (it still commits when its turns are over): a new group.
      const group: Group = { valueIndex, waiting: [request], records: records.length };
      this.open.set(family, group);
      afterQuietTurn(
        () => group.records,
        () => {
          if (this.open.get(family) === group) this.open.delete(family);
          void this.commit(family, group);
        },
      );
    });
  }

  private async commit(family: string, group: Group): Promise<void> {
    const { waiting, valueIndex } = group;
    if (waiting.length === 1) return this.alone(family, valueIndex, waiting[0]);
    const { batch, positions } = uniqueIds(waiting);
    let outcomes: InsertOutcome[];
    try {
      outcomes = await this.insertNow(family, batch, valueIndex);
    } catch (error) {
      if (error instanceof StoreUnavailableError) {
        for (const request of waiting) request.reject(error);
        return;
      }
      await Promise.all(waiting.map((request) => this.alone(family, valueIndex, request)));
      return;
    }
    waiting.forEach((request, index) => {
      request.resolve(positions[index].map((position) => (position === DUPLICATE ? 'duplicate' : outcomes[position])));
    });
  }

  private async alone(family: string, valueIndex: ValueIndex, request: Waiting): Promise<void> {
    try {
      request.resolve(await this.insertNow(family, request.records, valueIndex));
    } catch (error) {
      request.reject(error);
    }
  }
}

const DUPLICATE = -1;

/**
 * One batch of every request's records, each id once (its first request's record), and for each
 * request where its records went: a position in the batch, or DUPLICATE.
 */
function uniqueIds(waiting: readonly Waiting[]): { batch: NewRecord[]; positions: number[][] } {
  const batch: NewRecord[] = [];
  const seen = new Set<string>();
  const positions = waiting.map(({ records }) =>
    records.map((record) => {
      if (seen.has(record.id)) return DUPLICATE;
      seen.add(record.id);
      batch.push(record);
      return batch.length - 1;
    }),
  );
  return { batch, positions };
}
