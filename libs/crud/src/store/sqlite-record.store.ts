import type { Database, Statement } from 'better-sqlite3';
import { JsonObject } from '../core/query/query.types';
import { addMultiValuedPaths, indexedValues } from './indexed-values';
import { RecordSelection, SelectionSpec, StoredRow } from './record-selection';
import {
  InsertOutcome,
  JoinedRecords,
  joinedRecordsOf,
  MissingReference,
  NewRecord,
  newRecordText,
  READ_PAGE_SIZE,
  RecordReference,
  RecordStore,
  UpdateDecision,
} from './record-store';
import { selectionPlan } from './selection-plan';
import { readSelection, readSelectionNow, SelectionQueries } from './selection-reader';
import { SQLITE_WILDCARD_FUNCTION, sqliteDialect } from './sql-dialect';
import { wildcardMatcher } from '../core/query/pattern-matcher';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { SqliteSharedReads } from './sqlite-shared-reads';
import { readEqualityWhole } from './equality-read-whole';
import { SeqHints } from './seq-hints';
import { joinedRecordSql, recordRowOfText } from './sqlite-record-rows';
import { joinedDocsSql } from './sqlite-joined-docs';
import { DerivedStatements } from './sqlite-derived-statements';
import { SqlitePathKeys } from './sqlite-path-keys';
import { docsForPath } from './docs-for-path';
import { ArrivalMarkers, SeqAfter } from './arrival-markers';
import {
  allLearned,
  LearnedPaths,
  learnedPathsSetting,
  learnedPathsSettingName,
  parseLearnedPaths,
  ValueIndex,
  valueIndexSettingName,
  withPathBuilding,
  withPathReady,
  WriteIndexes,
} from './value-index';
import { SqlFragment } from './where-compiler';
import { INSERT_RECORDS, INSERTED_SINCE, INSERT_VALUES, insertRows, rowCounts } from './sqlite-multi-row';

function requiresAny(record: NewRecord): boolean {
  return record.requires !== undefined && record.requires.length > 0;
}

function parsedDocs(rows: readonly { seq: number; doc: string }[]): { seq: number; doc: JsonObject }[] {
  return rows.map((row) => ({ seq: row.seq, doc: JSON.parse(row.doc) as JsonObject }));
}

const RECORD_AT_SEQ = 'SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.seq = ? AND r.family = ?';
const SEQ_AFTER = 'SELECT seq FROM inventory_record WHERE family = ? AND seq >= ? ORDER BY seq LIMIT 1 OFFSET ?';

/** One per connection: a removal through any store on it moves every marker of that connection. */
const MARKERS = new WeakMap<Database, ArrivalMarkers>();

function markersOf(db: Database, seqAfter: SeqAfter): ArrivalMarkers {
  let markers = MARKERS.get(db);
  if (!markers) MARKERS.set(db, (markers = new ArrivalMarkers(seqAfter)));
  return markers;
}

/**
 * SQLite through better-sqlite3, which is synchronous: every write runs start to finish without
 * yielding, in the transaction its group commits (SqliteGroupCommit), so writes from concurrent
 * requests can never interleave (TypeORM's shared connection would turn them into savepoints of
 * one another and lose some).
 * Reads yield between pages so a large read does not freeze other requests.
 */
export class SqliteRecordStore extends RecordStore {
  private readonly statements = new Map<string, Statement>();
  /** Each statement's variant that selects each record as one text, null for one that selects no records (`all`). */
  private readonly joinedRecordStatements = new DerivedStatements((sql) => {
    const joined = joinedRecordSql(sql);
    return joined === undefined ? null : this.db.prepare(joined).pluck();
  });
  /** Each statement's variant that selects its records as one row (`readWhole`). */
  private readonly joinedDocsStatements = new DerivedStatements((sql) => this.db.prepare(joinedDocsSql(sql)).raw(true));
  private readonly writes: SqliteGroupCommit;
  private readonly reads: SqliteSharedReads;
  private readonly pathKeys: SqlitePathKeys;
  private readonly markers: ArrivalMarkers;
  /** Updates and deletes of stored records by this store; see `delete`. */
  private recordChanges = 0;

  constructor(
    private readonly db: Database,
    private readonly hints = new SeqHints(),
  ) {
    super();
    this.pathKeys = new SqlitePathKeys(db);
    this.writes = new SqliteGroupCommit(db, () => this.pathKeys.confirm());
    this.reads = new SqliteSharedReads(db);
    this.markers = markersOf(
      db,
      (family, fromSeq, skip) => this.statement(SEQ_AFTER).pluck().get(family, fromSeq, skip) as number | undefined,
    );
    // What GLOB cannot match: text holding NUL (see sqliteWildcard).
    db.function(SQLITE_WILDCARD_FUNCTION, { deterministic: true }, (text: unknown, pattern: unknown) =>
      typeof text === 'string' && typeof pattern === 'string' && wildcardMatcher(pattern)(text) ? 1 : 0,
    );
  }

  read(spec: SelectionSpec): AsyncIterable<StoredRow[]> {
    return readSelection(selectionPlan(new RecordSelection(spec, sqliteDialect), 'read'), this.sharedQueries(), spec.budget);
  }

  /** See `readEqualityWhole`; the joined row is `joinedDocsSql`'s. */
  readWhole(spec: SelectionSpec): Promise<JoinedRecords | AsyncIterable<StoredRow[]>> {
    return readEqualityWhole(new RecordSelection(spec, sqliteDialect), {
      joined: (fragment) =>
        this.reads.run(() => {
          const joinedDocs = this.joinedDocsStatements.of(this.statement(fragment.sql), fragment.sql)!;
          const [seqs, docs] = joinedDocs.get(...fragment.params) as [string | null, string | null];
          return joinedRecordsOf(seqs, docs);
        }),
      paged: (selection) => readSelection(selectionPlan(selection, 'read'), this.sharedQueries(), spec.budget),
    });
  }

  async insert(family: string, records: readonly NewRecord[], valueIndex: ValueIndex): Promise<InsertOutcome[]> {
    return this.writes.run(() => {
      const index = this.writeIndex(family, valueIndex);
      const outcomes: InsertOutcome[] = [];
      let from = 0;
      while (from < records.length) {
        if (requiresAny(records[from])) {
          outcomes.push(this.insertOne(family, records[from], index));
          from += 1;
          continue;
        }
        let to = from + 1;
        while (to < records.length && !requiresAny(records[to])) to += 1;
        for (const count of rowCounts(to - from)) {
          outcomes.push(...this.insertRun(family, records.slice(from, from + count), index));
          from += count;
        }
      }
      return outcomes;
    });
  }

  /** Records that require none, in one statement. Rows go in in order, so of two with one id the first is written. */
  private insertRun(family: string, run: readonly NewRecord[], index: ValueIndex): InsertOutcome[] {
    const params: unknown[] = [];
    for (const record of run) params.push(family, record.id, newRecordText(record));
    const { changes, lastInsertRowid } = this.statement(INSERT_RECORDS.sql(run.length)).run(...params);
    const last = Number(lastInsertRowid);
    if (changes === run.length) {
      const first = last - changes + 1;
      run.forEach((record, position) => this.hints.set(family, record.id, first + position));
      this.insertValues(
        run.map((record, position) => ({ seq: first + position, doc: record.doc })),
        family,
        index,
      );
      return run.map(() => 'inserted');
    }
    const written = changes === 0 ? [] : (this.statement(INSERTED_SINCE).all(last, changes) as { seq: number; id: string }[]);
    const seqOfWritten = new Map(written.map((row) => [row.id, row.seq]));
    const values: { seq: number; doc: JsonObject }[] = [];
    const outcomes = run.map((record): InsertOutcome => {
      const seq = seqOfWritten.get(record.id);
      if (seq === undefined) return 'duplicate';
      seqOfWritten.delete(record.id);
      this.hints.set(family, record.id, seq);
      values.push({ seq, doc: record.doc });
      return 'inserted';
    });
    this.insertValues(values, family, index);
    return outcomes;
  }

  /** One record, after the records before it: what it requires may be among them. */
  private insertOne(family: string, record: NewRecord, index: ValueIndex): InsertOutcome {
    const missing = this.missing(record.requires);
    if (missing.length > 0) return { missing };
    const result = this.statement(
      'INSERT INTO inventory_record (family, id, doc) VALUES (?, ?, ?) ON CONFLICT (family, id) DO NOTHING',
    ).run(family, record.id, newRecordText(record));
    if (result.changes === 0) return 'duplicate';
    this.hints.set(family, record.id, Number(result.lastInsertRowid));
    this.insertValues([{ seq: Number(result.lastInsertRowid), doc: record.doc }], family, index);
    return 'inserted';
  }

  async update(
    family: string,
    ids: readonly string[],
    decide: UpdateDecision,
    valueIndex: ValueIndex,
  ): Promise<(MissingReference | undefined)[]> {
    const select = this.statement('SELECT seq, doc FROM inventory_record WHERE family = ? AND id = ?');
    const write = this.statement('UPDATE inventory_record SET doc = ? WHERE seq = ?');
    const clearValues = this.statement('DELETE FROM inventory_value WHERE seq = ?');
    return this.writes.run(() => {
      const writeIndex = this.writeIndex(family, valueIndex);
      return ids.map((id, index) => {
        const row = select.get(family, id) as { seq: number; doc: string } | undefined;
        const next = decide(index, row ? (JSON.parse(row.doc) as JsonObject) : undefined);
        if (!row || !next) return undefined;
        const missing = this.missing(next.requires);
        if (missing.length > 0) return { missing };
        write.run(JSON.stringify(next.doc), row.seq);
        this.recordChanges += 1;
        clearValues.run(row.seq);
        this.insertValues([{ seq: row.seq, doc: next.doc }], family, writeIndex);
        return undefined;
      });
    });
  }

  async missingReferences(references: readonly RecordReference[]): Promise<RecordReference[]> {
    return this.missing(references);
  }

  /**
   * Runs inside the write's transaction, which SqliteGroupCommit opens IMMEDIATE: no other
   * connection can delete a required record between this check and the write.
   */
  private missing(requires: readonly RecordReference[] | undefined): RecordReference[] {
    if (!requires || requires.length === 0) return [];
    const exists = this.statement('SELECT 1 FROM inventory_record WHERE family = ? AND id = ?').pluck();
    return requires.filter((reference) => exists.get(reference.family, reference.id) === undefined);
  }

  /**
   * Finds the matches first, outside any transaction and pausing like a read, so that a costly
   * query does not hold the event loop; then, in one transaction, deletes them if no record was
   * changed or deleted meanwhile (records created meanwhile are not chased, as in any delete
   * that took its candidates up front). If some were, it decides again inside the transaction,
   * where nothing can change under it.
   */
  async delete(spec: SelectionSpec): Promise<string[]> {
    const before = this.changeMark();
    const found: StoredRow[] = [];
    const plan = selectionPlan(new RecordSelection(spec, sqliteDialect), 'delete');
    for await (const rows of readSelection(plan, this.sharedQueries(), spec.budget)) found.push(...rows);
    return this.writes.run(() => {
      if (this.changeMark() === before) return this.deleteRows(found);
      const again = selectionPlan(new RecordSelection(spec, sqliteDialect), 'delete');
      return this.deleteRows([...readSelectionNow(again, this.selectionQueries(), spec.budget)].flat());
    });
  }

  /** Changes to stored records since the store opened: this process's, then other connections'. */
  private changeMark(): string {
    return `${this.recordChanges}:${this.dataVersion()}`;
  }

  /** Changes whenever another connection has committed (SQLite's `PRAGMA data_version`). */
  private dataVersion(): number {
    return this.statement('PRAGMA data_version').pluck().get() as number;
  }

  private deleteRows(rows: readonly StoredRow[]): string[] {
    for (let start = 0; start < rows.length; start += READ_PAGE_SIZE) {
      const remove = RecordSelection.deleteBySeq(rows.slice(start, start + READ_PAGE_SIZE).map((row) => row.seq));
      this.statement(remove.sql).run(...remove.params);
    }
    if (rows.length > 0) {
      this.recordChanges += 1;
      this.markers.removed();
    }
    return rows.map((row) => row.id);
  }

  /** For reads inside a write's transaction. */
  private selectionQueries(): SelectionQueries & {
    rows(fragment: SqlFragment): StoredRow[];
    seqs(fragment: SqlFragment): number[];
    texts(fragment: SqlFragment): string[];
  } {
    return {
      rows: (fragment) => this.all(fragment),
      seqs: (fragment) => this.plucked<number>(fragment),
      texts: (fragment) => this.plucked<string>(fragment),
    };
  }

  /** For reads outside a transaction: the statements of a turn share one (`SqliteSharedReads`). */
  private sharedQueries(): SelectionQueries {
    return {
      seqAtOffset: (family, offset) => this.reads.run(() => this.markers.seqAt(family, offset, this.dataVersion())),
      rows: (fragment) => this.reads.run(() => this.all(fragment)),
      seqs: (fragment) => this.reads.run(() => this.plucked<number>(fragment)),
      texts: (fragment) => this.reads.run(() => this.plucked<string>(fragment)),
    };
  }

  /** See `RecordStore.adoptValueIndex`. One immediate transaction: no write comes between the check and the rebuild. */
  async adoptValueIndex(family: string, valueIndex: ValueIndex): Promise<boolean> {
    const name = valueIndexSettingName(family);
    const declared = valueIndex.toSetting();
    const rebuilt = this.db
      .transaction(() => {
        const stored = this.statement('SELECT value FROM inventory_setting WHERE name = ?').pluck().get(name) as string | undefined;
        if (stored === declared) return false;
        const rebuild = !ValueIndex.fromSetting(stored).includes(valueIndex);
        if (rebuild) {
          // Learned paths are rebuilt along (and so are ready): the rows of every one are complete after this.
          const learned = this.readLearned(family);
          valueIndex = valueIndex.withPaths(allLearned(learned));
          if (allLearned(learned).length > 0) this.writeLearned(family, { building: [], ready: allLearned(learned) });
          this.statement('DELETE FROM inventory_value WHERE path_key IN (SELECT key FROM inventory_value_path WHERE family = ?)').run(
            family,
          );
          const page = this.statement('SELECT seq, doc FROM inventory_record WHERE family = ? AND seq > ? ORDER BY seq LIMIT ?');
          let afterSeq = 0;
          for (;;) {
            const rows = page.all(family, afterSeq, READ_PAGE_SIZE) as { seq: number; doc: string }[];
            this.insertValues(parsedDocs(rows), family, valueIndex);
            if (rows.length < READ_PAGE_SIZE) break;
            afterSeq = rows[rows.length - 1].seq;
          }
        }
        this.statement(
          'INSERT INTO inventory_setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
        ).run(name, declared);
        return rebuild;
      })
      .immediate();
    this.pathKeys.confirm();
    return rebuilt;
  }

  async learnedPaths(family: string): Promise<LearnedPaths> {
    return this.readLearned(family);
  }

  /** In the group commit's immediate transaction: no write of any connection comes between its read of the setting and this change. */
  async learnPath(family: string, path: string, cap: number): Promise<LearnedPaths> {
    return this.writes.run(() => {
      const learned = this.readLearned(family);
      const all = allLearned(learned);
      if (all.includes(path) || all.length >= cap) return learned;
      const next = withPathBuilding(learned, path);
      this.writeLearned(family, next);
      return next;
    });
  }

  async lastSeq(family: string): Promise<number> {
    return (this.statement('SELECT max(seq) FROM inventory_record WHERE family = ?').pluck().get(family) as number | null) ?? 0;
  }

  /** A slice takes further pages while it has time left (`sliceMs`), so a page's size barely matters here. */
  readonly learnedPageRecords = 500;

  async buildLearnedRows(
    family: string,
    path: string,
    afterSeq: number,
    untilSeq: number,
    limit: number,
    sliceMs: number,
  ): Promise<number | undefined> {
    const index = ValueIndex.of([path]);
    const page = this.statement('SELECT seq, doc FROM inventory_record WHERE family = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?');
    // The page is every record of the family in its range of seqs, so the path's rows of the whole
    // range go in one statement: 200k events built in 1.5-1.6 s, against 2.5 s with a statement
    // per record (bench/store-reads.ts). By the (seq, path) index: through the text index, each
    // page read all the path's rows built so far (4.3-4.5 s).
    const clear = this.statement(
      'DELETE FROM inventory_value INDEXED BY inventory_value_seq WHERE seq > ? AND seq <= ? AND path_key IN (SELECT key FROM inventory_value_path WHERE family = ? AND (path = ? OR substr(path, 1, ?) = ?))',
    );
    return this.writes.run(() => {
      const deadline = performance.now() + sliceMs;
      let last: number | undefined;
      for (;;) {
        const from = last ?? afterSeq;
        const rows = page.all(family, from, untilSeq, limit) as { seq: number; doc: string }[];
        if (rows.length > 0) {
          last = rows[rows.length - 1].seq;
          clear.run(from, last, family, path, path.length + 1, `${path}.`);
        }
        this.insertValues(docsForPath(rows, path), family, index);
        if (rows.length < limit || performance.now() >= deadline) return last;
      }
    });
  }

  async learnedPathReady(family: string, path: string): Promise<LearnedPaths> {
    return this.writes.run(() => {
      const learned = this.readLearned(family);
      if (!learned.building.includes(path)) return learned;
      const next = withPathReady(learned, path);
      this.writeLearned(family, next);
      return next;
    });
  }

  private readLearned(family: string): LearnedPaths {
    return parseLearnedPaths(
      this.statement('SELECT value FROM inventory_setting WHERE name = ?').pluck().get(learnedPathsSettingName(family)) as
        string | undefined,
    );
  }

  private writeLearned(family: string, learned: LearnedPaths): void {
    this.statement('INSERT INTO inventory_setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(
      learnedPathsSettingName(family),
      learnedPathsSetting(learned),
    );
  }

  private readonly writeIndexes = new WriteIndexes();

  /**
   * `valueIndex` with the family's learned paths, read inside the write's transaction (a
   * primary-key read): a path another process learned is indexed from its first write after.
   */
  private writeIndex(family: string, valueIndex: ValueIndex): ValueIndex {
    if (valueIndex === ValueIndex.EVERY_PATH) return valueIndex;
    const setting = this.statement('SELECT value FROM inventory_setting WHERE name = ?').pluck().get(learnedPathsSettingName(family)) as
      string | undefined;
    return this.writeIndexes.of(family, valueIndex, setting);
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  private insertValues(records: readonly { seq: number; doc: JsonObject }[], family: string, valueIndex: ValueIndex): void {
    const params: unknown[] = [];
    const keyOf = this.pathKeys.forWrite(family);
    const multiValued = new Set<string>();
    for (const { seq, doc } of records) {
      const rows = indexedValues(doc, valueIndex);
      for (const value of rows) params.push(seq, keyOf(value.path), value.kind, value.text, value.num);
      addMultiValuedPaths(rows, multiValued);
    }
    insertRows(INSERT_VALUES, params, (sql) => this.statement(sql));
    for (const path of multiValued)
      this.statement('UPDATE inventory_value_path SET multi = 1 WHERE key = ? AND multi = 0').run(keyOf(path));
  }

  /** The rows of a statement; a lookup of one record by its key tries its hint first. */
  private all(fragment: SqlFragment): StoredRow[] {
    const key = fragment.recordKey;
    if (key) return this.recordByKey(key.family, key.id, fragment);
    return this.allRows(fragment);
  }

  /**
   * The record of (family, id) read at its hinted sequence number when there is a hint and it
   * holds (`SeqHints`); by the (family, id) index otherwise, which hints it for the next read.
   * At 1M records W1 made 2.1 read calls an answer against 2.9 (one is the request's).
   */
  private recordByKey(family: string, id: string, fragment: SqlFragment): StoredRow[] {
    const hinted = this.hints.get(family, id);
    if (hinted !== undefined) {
      const text = this.joinedRecordStatements.of(this.statement(RECORD_AT_SEQ), RECORD_AT_SEQ)!.get(hinted, family) as string | undefined;
      if (text !== undefined) {
        const row = recordRowOfText(text);
        if (row.id === id) return [row];
      }
    }
    const rows = this.allRows(fragment);
    if (rows.length > 0) this.hints.set(family, id, rows[0].seq);
    return rows;
  }

  /**
   * Rows of a statement that selects records (`r.seq, r.id, r.doc`) are read as one text each
   * and split here (`joinedRecordSql`, where the figures are); any other rows statement
   * (top-by-index's walk of `seq, value`) is read as objects.
   */
  private allRows(fragment: SqlFragment): StoredRow[] {
    const statement = this.statement(fragment.sql);
    const joined = this.joinedRecordStatements.of(statement, fragment.sql);
    if (!joined) return statement.raw(false).all(...fragment.params) as StoredRow[];
    return (joined.all(...fragment.params) as string[]).map(recordRowOfText);
  }

  /** The first column of each row: sequence numbers, or texts. */
  private plucked<T extends number | string>(fragment: SqlFragment): T[] {
    return this.statement(fragment.sql)
      .pluck()
      .all(...fragment.params) as T[];
  }

  /** Prepared statements are reused; their SQL text depends only on the query's shape. */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
