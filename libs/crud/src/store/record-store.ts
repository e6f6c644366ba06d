import { JsonObject } from '../core/query/query.types';
import { SelectionSpec, StoredRow } from './record-selection';
import { LearnedPaths, ValueIndex } from './value-index';

/** A record of some family, named by its index and id: what a reference field points at. */
export interface RecordReference {
  family: string;
  id: string;
  /** The field of the writing record that names it, for the caller's message; the store ignores it. */
  field?: string;
}

export interface NewRecord {
  id: string;
  doc: JsonObject;
  /** `doc` as the JSON text it was sent as, when that is known: stored instead of JSON.stringify's. */
  text?: string;
  /** Records that must exist when this one is written, checked in the same transaction. */
  requires?: readonly RecordReference[];
}

/** Why a write did not happen although the item was valid: the required records that do not exist. */
export interface MissingReference {
  missing: RecordReference[];
}

/** The text a new record is stored as. */
export function newRecordText(record: NewRecord): string {
  return record.text ?? JSON.stringify(record.doc);
}

export type InsertOutcome = 'inserted' | 'duplicate' | MissingReference;

export interface UpdateWrite {
  doc: JsonObject;
  /** As for `NewRecord.requires`: the write happens only if all of them exist. */
  requires?: readonly RecordReference[];
}

/**
 * Called once per update item, in order, inside the store's transaction, with the record as it
 * stands at that moment (after earlier items of the same batch). Returns what to write, or
 * undefined to leave the record as it is. Must not throw: per-item failures are the caller's outcomes.
 */
export type UpdateDecision = (index: number, current: JsonObject | undefined) => UpdateWrite | undefined;

/** Thrown by a store when the database cannot be reached: the HTTP layer answers 503. */
export class StoreUnavailableError extends Error {
  readonly httpStatus = 503;
  readonly publicMessage = 'Service unavailable: the database does not answer';

  constructor(cause?: unknown) {
    super('database unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}

/** A whole selection as `readWhole` may answer it: how many records, and their documents joined by commas in query order. */
export class JoinedRecords {
  constructor(
    readonly count: number,
    readonly docs: string,
  ) {}
}

/**
 * Why the records of a joined row (`joinedDocsSql`, `postgresJoinedDocsSql`) must be read row by row instead: they were more
 * than a page, or their order was not strictly arrival order (a record whose list holds the
 * value twice comes twice).
 */
export type JoinedRefusal = 'over a page' | 'not in arrival order';

/** The records of a joined row (zero: a count of 0 and no text), or why they must be read row by row. */
export function joinedRecordsOf(seqs: string | null, docs: string | null): JoinedRecords | JoinedRefusal {
  if (seqs === null || docs === null) return new JoinedRecords(0, '');
  let count = 0;
  let previous = 0;
  let start = 0;
  for (;;) {
    const comma = seqs.indexOf(',', start);
    const seq = Number(comma < 0 ? seqs.slice(start) : seqs.slice(start, comma));
    if (!(seq > previous)) return 'not in arrival order';
    previous = seq;
    count += 1;
    if (comma < 0) break;
    start = comma + 1;
  }
  return count > READ_PAGE_SIZE ? 'over a page' : new JoinedRecords(count, docs);
}

/** Where records live. One implementation per database; both pass the same contract suite. */
export abstract class RecordStore {
  /** Rows of the selection in query order, a page at a time; an empty selection yields nothing. */
  abstract read(selection: SelectionSpec): AsyncIterable<StoredRow[]>;
  /**
   * The selection for a caller that needs no record apart (an answer without a projection): as
   * one text where the store reads it so for less (both stores: `readEqualityWhole`),
   * otherwise page by page as `read` yields it.
   */
  readWhole(selection: SelectionSpec): Promise<JoinedRecords | AsyncIterable<StoredRow[]>> {
    return Promise.resolve(this.read(selection));
  }
  /**
   * Inserts each record unless its id exists or a record it requires does not; answers per
   * record. The check of `requires` and the write are one transaction, and the required rows
   * stay locked until it commits, so a concurrent delete of one cannot slip in between.
   * `valueIndex` says which value rows to write; reads of the family must use the same one.
   */
  abstract insert(family: string, records: readonly NewRecord[], valueIndex: ValueIndex): Promise<InsertOutcome[]>;
  /** Answers, per item, the required record that was missing (so nothing was written), if any. */
  abstract update(
    family: string,
    ids: readonly string[],
    decide: UpdateDecision,
    valueIndex: ValueIndex,
  ): Promise<(MissingReference | undefined)[]>;
  /**
   * Which of `references` do not exist, read without locking: for reporting on items that are
   * refused anyway. A write's own check happens inside its transaction (`insert`, `update`).
   */
  abstract missingReferences(references: readonly RecordReference[]): Promise<RecordReference[]>;
  /** Deletes the selection in one transaction; answers the deleted ids in query order. */
  abstract delete(selection: SelectionSpec): Promise<string[]>;
  /**
   * Makes the family's stored value rows serve `valueIndex`, rebuilding them if it holds a path
   * they were not written for (see `valueIndexSettingName`), and records it. Runs at start-up,
   * before the family serves; answers whether it rebuilt.
   */
  abstract adoptValueIndex(family: string, valueIndex: ValueIndex): Promise<boolean>;
  /** The family's learned paths as stored now (see `LearnedPaths`): one primary-key read. */
  abstract learnedPaths(family: string): Promise<LearnedPaths>;
  /**
   * Adds `path` to the family's learned paths, as building, unless it is there already or the
   * family has `cap` of them; answers the learned paths after. Serialized with every write's
   * read of the setting (SQLite: an immediate transaction; PostgreSQL: the setting row locked
   * FOR UPDATE against the writers' FOR SHARE): once it returns, every write that did not see
   * the path has committed, and every later write indexes it.
   */
  abstract learnPath(family: string, path: string, cap: number): Promise<LearnedPaths>;
  /** The family's highest seq now (0 for none). */
  abstract lastSeq(family: string): Promise<number>;
  /** Records per page of a learned path's build (`buildLearnedRows`' `limit`): what a page costs differs by database. */
  abstract readonly learnedPageRecords: number;
  /**
   * Replaces the value rows of `path` (and below) of the family's records with
   * afterSeq < seq <= untilSeq, in seq order, from their current documents, in one transaction
   * that no write of those records can interleave with: a page of `limit` records, and on SQLite
   * (where the build holds the event loop) further pages while less than `sliceMs` has passed.
   * Answers the last seq done, undefined when none was left.
   */
  abstract buildLearnedRows(
    family: string,
    path: string,
    afterSeq: number,
    untilSeq: number,
    limit: number,
    sliceMs: number,
  ): Promise<number | undefined>;
  /** Moves `path` from building to ready; answers the learned paths after. */
  abstract learnedPathReady(family: string, path: string): Promise<LearnedPaths>;
  abstract ping(): Promise<void>;
}

export const READ_PAGE_SIZE = 1000;
