import { types, type Pool, type PoolClient } from 'pg';
import { QueryBudget, StatementStop } from '../core/query/query-budget';
import { JsonObject } from '../core/query/query.types';
import { addMultiValuedPaths, indexedValues } from './indexed-values';
import { configureSessions } from './postgres-sessions';
import { RecordSelection, SelectionSpec, StoredRow } from './record-selection';
import {
  InsertOutcome,
  JoinedRecords,
  joinedRecordsOf,
  JoinedRefusal,
  MissingReference,
  NewRecord,
  newRecordText,
  READ_PAGE_SIZE,
  RecordReference,
  RecordStore,
  StoreUnavailableError,
  UpdateDecision,
  UpdateWrite,
} from './record-store';
import { cancellable } from './postgres-cancel';
import { queryRowArrays, RowArrays } from './postgres-row-arrays';
import { PostgresPathKeys } from './postgres-path-keys';
import { GroupedRecordReads } from './grouped-record-reads';
import { GroupedInserts } from './grouped-inserts';
import { GroupedSelections, GroupRow } from './grouped-selections';
import { joinedDocsOf, postgresJoinedDocsSql, SNAPSHOT_SQL } from './postgres-joined-docs';
import { readEqualityWhole } from './equality-read-whole';
import { SnapshotCheckedReads, statementKey } from './snapshot-checked-reads';
import { docsForPath } from './docs-for-path';
import { ReadStatements, statementName, StatementNames } from './statement-names';
import { selectionPlan } from './selection-plan';
import { readSelection, SelectionQueries } from './selection-reader';
import { encodePostgresText, postgresDialect, toPostgresPlaceholders } from './sql-dialect';
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

/** Error classes that mean "the database is not there", not "the query was wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

const READ_RECORDS_SQL = `SELECT r.family, r.seq, r.id, r.doc
  FROM unnest($1::text[], $2::text[]) AS k(family, id)
  JOIN inventory_record r ON r.family = k.family COLLATE "C" AND r.id = k.id COLLATE "C"`;

/** The snapshot statement, shared by every read that waits for one (`GroupedSelections`). */
const SNAPSHOT_STATEMENT = { sql: SNAPSHOT_SQL, params: [], shareable: true };

/**
 * Characters of equality answers kept (`SnapshotCheckedReads`): W3's answers on 10k events, every
 * value of either workload, are ~3 MB at 10 or 40 matches a value.
 */
const EQUALITY_ANSWERS_MAX_CHARS = 8_000_000;

/**
 * PostgreSQL through the pg pool that TypeORM opened. Several service processes may share the
 * database, so every write takes row locks (or relies on the primary key) inside a transaction
 * instead of trusting anything held in this process.
 */
export class PostgresRecordStore extends RecordStore {
  private readonly inserts = new GroupedInserts((family, records, valueIndex) => this.insertNow(family, records, valueIndex));
  private readonly recordReads = new GroupedRecordReads((families, ids) => this.readRecordsNow(families, ids));
  private readonly readNames = new StatementNames();
  private readonly readStatements = new ReadStatements(toPostgresPlaceholders, this.readNames);
  private readonly pathKeys = new PostgresPathKeys();
  private readonly selections = new GroupedSelections({
    alone: (fragment, budget) => this.onConnectionOfItsOwn(budget, (on) => this.rows(on, fragment)),
    together: (sql, params, stop) => this.onConnectionOfItsOwn(stop, (on) => this.recordRows<GroupRow>(on, sql, params)),
  });

  constructor(private readonly pool: Pool) {
    super();
    configureSessions(pool);
  }

  /**
   * Equality reads' joined rows, as `joinedRecordsOf` took them (a refusal is kept as such, without
   * its texts), given again while no transaction has committed since (see the class).
   */
  private readonly equalityAnswers = new SnapshotCheckedReads<JoinedRecords | JoinedRefusal>(
    {
      read: async (fragment, budget) => {
        const joined = { sql: postgresJoinedDocsSql(fragment.sql), params: fragment.params, shareable: true };
        const { snapshot, seqs, docs } = joinedDocsOf((await this.selections.rows(joined, budget))[0]);
        return { snapshot, answer: joinedRecordsOf(seqs, docs) };
      },
      snapshot: async (budget) => (await this.selections.rows(SNAPSHOT_STATEMENT, budget))[0].id,
      sizeOf: (answer) => (answer instanceof JoinedRecords ? answer.docs.length : 0),
    },
    EQUALITY_ANSWERS_MAX_CHARS,
  );

  /**
   * See `readEqualityWhole`; the joined row is `postgresJoinedDocsSql`'s, one branch of the
   * grouped statements, or the one an earlier read of the same statement got while nothing has
   * been committed since.
   */
  readWhole(spec: SelectionSpec): Promise<JoinedRecords | AsyncIterable<StoredRow[]>> {
    return readEqualityWhole(new RecordSelection(spec, postgresDialect), {
      joined: (fragment) => this.equalityAnswers.read(statementKey(fragment), fragment, spec.budget),
      paged: (selection) => readSelection(selectionPlan(selection, 'read'), this.queries(this.pool, spec.budget), spec.budget),
    });
  }

  read(spec: SelectionSpec): AsyncIterable<StoredRow[]> {
    return readSelection(
      selectionPlan(new RecordSelection(spec, postgresDialect), 'read'),
      this.queries(this.pool, spec.budget),
      spec.budget,
    );
  }

  async insert(family: string, records: readonly NewRecord[], valueIndex: ValueIndex): Promise<InsertOutcome[]> {
    if (records.length === 0) return [];
    return this.inserts.insert(family, records, valueIndex);
  }

  /**
   * One statement when it can (no record requires another, and this process has seen the
   * family's learned paths before): a commit of its own, without BEGIN, a read of the setting
   * and COMMIT as round trips of their own. Otherwise, or if the learned paths changed since,
   * the transaction below.
   */
  private async insertNow(family: string, records: readonly NewRecord[], valueIndex: ValueIndex): Promise<InsertOutcome[]> {
    if (!records.some((record) => record.requires?.length)) {
      const outcomes = await this.insertInOneStatement(family, records, valueIndex);
      if (outcomes) return outcomes;
    }
    return this.insertInTransaction(family, records, valueIndex);
  }

  /**
   * The records and their value rows in one statement, written under the learned paths this
   * process last read. The statement checks that setting and locks it FOR SHARE, as
   * `writeIndex` does in a transaction: `learnPath` cannot change it until this commits, and
   * if it changed before, nothing is written and the answer is undefined.
   *
   * It first runs as a plain INSERT: `ON CONFLICT DO NOTHING` makes PostgreSQL insert each row
   * speculatively (a check of the unique index first, a confirmation record in the WAL after),
   * which cost 40 % more per record (200k records in batches of 1,000: 1.86–2.05 s against
   * 1.31–1.35 s). A batch holding an id that exists, or one id twice, fails as a whole on the
   * unique key, writes nothing, and runs again with the clause.
   */
  private async insertInOneStatement(
    family: string,
    records: readonly NewRecord[],
    valueIndex: ValueIndex,
  ): Promise<InsertOutcome[] | undefined> {
    const everyPath = valueIndex === ValueIndex.EVERY_PATH;
    const lastRead = everyPath ? undefined : this.writeIndexes.lastRead(family, valueIndex);
    const setting = lastRead?.setting;
    if (!everyPath && setting === undefined) return undefined;
    const index = lastRead?.index ?? valueIndex;
    const values = valueColumns(
      records.map((record) => ({ key: record.id, doc: record.doc })),
      index,
    );
    const params = [
      family,
      JSON.stringify(records.map((record) => record.id)),
      docsOf(records),
      everyPath ? null : learnedPathsSettingName(family),
      setting ?? null,
      ...valueParams(values, await this.pathKeysOf(this.pool, family, values.paths)),
      JSON.stringify([...values.multiValued]),
    ];
    const { fresh, ids } = (await this.insertSkippingStoredIfNeeded(params))[0];
    if (!fresh) return undefined;
    if (!ids) return records.map((): InsertOutcome => 'inserted');
    const inserted = new Set(ids);
    return records.map((record): InsertOutcome => (inserted.has(record.id) ? 'inserted' : 'duplicate'));
  }

  /**
   * INSERT_NEW, and INSERT_SKIPPING_STORED if an id already stored fails it, on one connection.
   * Through `pool.query` a statement that fails closes its connection (pg's pool cannot tell a
   * refused statement from a broken connection), so every batch holding a stored id cost a new
   * connection: a PostgreSQL backend started, its session set up, its prepared statements lost.
   * A unique violation leaves the connection as it was; any other error still closes it.
   */
  private async insertSkippingStoredIfNeeded(params: unknown[]): Promise<{ fresh: boolean; ids?: string[] }[]> {
    const client = await this.connection();
    let failed = false;
    try {
      try {
        return await this.run(client, INSERT_NEW.text, params, INSERT_NEW.name);
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      }
      return await this.run(client, INSERT_SKIPPING_STORED.text, params, INSERT_SKIPPING_STORED.name);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A connection released as failed is closed by the pool.
      client.release(failed);
    }
  }

  private insertInTransaction(family: string, records: readonly NewRecord[], valueIndex: ValueIndex): Promise<InsertOutcome[]> {
    return this.transaction(async (client) => {
      const index = await this.writeIndex(client, family, valueIndex);
      const present = await this.lockReferences(
        client,
        records.flatMap((record) => record.requires ?? []),
      );
      const missing = records.map((record) => (record.requires ?? []).filter((reference) => !present.has(referenceKey(reference))));
      const writable = records.filter((_record, position) => missing[position].length === 0);
      const inserted = await client.query<{ seq: string; id: string }>({
        ...INSERT_IN_TRANSACTION,
        values: [family, JSON.stringify(writable.map((record) => record.id)), docsOf(writable)],
      });
      const seqById = new Map(inserted.rows.map((row) => [row.id, Number(row.seq)]));
      await this.insertValues(
        client,
        family,
        writable.filter((record) => seqById.has(record.id)).map((record) => ({ seq: seqById.get(record.id)!, doc: record.doc })),
        index,
      );
      return records.map((record, position): InsertOutcome => {
        if (missing[position].length > 0) return { missing: missing[position] };
        return seqById.has(record.id) ? 'inserted' : 'duplicate';
      });
    });
  }

  async update(
    family: string,
    ids: readonly string[],
    decide: UpdateDecision,
    valueIndex: ValueIndex,
  ): Promise<(MissingReference | undefined)[]> {
    return this.transaction(async (client) => {
      const index = await this.writeIndex(client, family, valueIndex);
      // Locking in id order keeps two batches that touch the same records from deadlocking.
      const locked = await client.query<{ seq: string; id: string; doc: string }>(
        'SELECT seq, id, doc FROM inventory_record WHERE family = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE',
        [family, [...new Set(ids)]],
      );
      const current = new Map(locked.rows.map((row) => [row.id, { seq: Number(row.seq), doc: JSON.parse(row.doc) as JsonObject }]));
      const changed = new Map<string, { seq: number; doc: JsonObject }>();
      const refused = new Array<MissingReference | undefined>(ids.length);
      for (const [index, id] of ids.entries()) {
        const record = current.get(id);
        const next: UpdateWrite | undefined = decide(index, record?.doc);
        if (!record || !next) continue;
        // Checked item by item: a later item of the batch merges onto this one only if it is written.
        const missing = await this.missing(client, next.requires);
        if (missing.length > 0) {
          refused[index] = { missing };
          continue;
        }
        record.doc = next.doc;
        changed.set(id, record);
      }
      if (changed.size === 0) return refused;
      const rows = [...changed.values()];
      await client.query(UPDATE_BY_SEQ_SQL, [
        JSON.stringify(rows.map((row) => row.seq)),
        docsText(rows.map((row) => JSON.stringify(row.doc))),
        family,
      ]);
      await client.query('DELETE FROM inventory_value WHERE seq = ANY($1::bigint[])', [rows.map((row) => row.seq)]);
      await this.insertValues(client, family, rows, index);
      return refused;
    });
  }

  async missingReferences(references: readonly RecordReference[]): Promise<RecordReference[]> {
    if (references.length === 0) return [];
    const unique = [...new Map(references.map((reference) => [referenceKey(reference), reference])).values()];
    const found = await this.run<{ family: string; id: string }>(
      this.pool,
      'SELECT family, id FROM inventory_record WHERE (family, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
      [unique.map((reference) => reference.family), unique.map((reference) => reference.id)],
    );
    const present = new Set(found.map(referenceKey));
    return references.filter((reference) => !present.has(referenceKey(reference)));
  }

  /**
   * The required records that exist, each locked FOR KEY SHARE until the transaction ends: a
   * concurrent DELETE of one waits for this write to commit (or, if it committed first, the row
   * is not found here), while updates of the target's document do not conflict with the lock.
   */
  private async lockReferences(client: PoolClient, references: readonly RecordReference[]): Promise<Set<string>> {
    if (references.length === 0) return new Set();
    const unique = [...new Map(references.map((reference) => [referenceKey(reference), reference])).values()];
    const found = await client.query<{ family: string; id: string }>(
      `SELECT family, id FROM inventory_record
       WHERE (family, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
       ORDER BY family, id FOR KEY SHARE`,
      [unique.map((reference) => reference.family), unique.map((reference) => reference.id)],
    );
    return new Set(found.rows.map(referenceKey));
  }

  private async missing(client: PoolClient, requires: readonly RecordReference[] | undefined): Promise<RecordReference[]> {
    if (!requires || requires.length === 0) return [];
    const present = await this.lockReferences(client, requires);
    return requires.filter((reference) => !present.has(referenceKey(reference)));
  }

  async delete(spec: SelectionSpec): Promise<string[]> {
    const selection = new RecordSelection(spec, postgresDialect);
    return this.transaction(async (client) => {
      const deleted: string[] = [];
      const queries = this.queries(client, spec.budget);
      for await (const rows of readSelection(selectionPlan(selection, 'delete'), queries, spec.budget)) {
        // RETURNING tells which rows this transaction really removed: a concurrent delete of the
        // same record makes it vanish here, and that caller answers 404 instead of a second 205.
        const removed = await client.query<{ id: string; seq: string }>(DELETE_BY_SEQ_SQL, [spec.family, rows.map((row) => row.seq)]);
        const removedSeqs = new Set(removed.rows.map((row) => Number(row.seq)));
        for (const row of rows) if (removedSeqs.has(row.seq)) deleted.push(row.id);
      }
      return deleted;
    });
  }

  /**
   * See `RecordStore.adoptValueIndex`. A transaction-scoped advisory lock per family makes
   * processes starting together check (and rebuild) one after the other, so once.
   */
  async adoptValueIndex(family: string, valueIndex: ValueIndex): Promise<boolean> {
    const name = valueIndexSettingName(family);
    const declared = valueIndex.toSetting();
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
      const stored = await client.query<{ value: string }>('SELECT value FROM inventory_setting WHERE name = $1', [name]);
      // The learned-paths row always exists once a process has started: writes lock it FOR SHARE (see writeIndex).
      await client.query('INSERT INTO inventory_setting (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        learnedPathsSettingName(family),
        learnedPathsSetting({ building: [], ready: [] }),
      ]);
      if (stored.rows[0]?.value === declared) return false;
      const rebuild = !ValueIndex.fromSetting(stored.rows[0]?.value).includes(valueIndex);
      if (rebuild) {
        // Learned paths are rebuilt along (and so are ready): the rows of every one are complete after this.
        const learned = await this.lockLearned(client, family);
        valueIndex = valueIndex.withPaths(allLearned(learned));
        if (allLearned(learned).length > 0) await this.writeLearned(client, family, { building: [], ready: allLearned(learned) });
        await client.query('DELETE FROM inventory_value WHERE path_key IN (SELECT key FROM inventory_value_path WHERE family = $1)', [
          family,
        ]);
        let afterSeq = 0;
        for (;;) {
          const page = await client.query<{ seq: string; doc: string }>(
            'SELECT seq, doc FROM inventory_record WHERE family = $1 AND seq > $2 ORDER BY seq LIMIT $3',
            [family, afterSeq, READ_PAGE_SIZE],
          );
          const rows = page.rows.map((row) => ({ seq: Number(row.seq), doc: JSON.parse(row.doc) as JsonObject }));
          await this.insertValues(client, family, rows, valueIndex);
          if (rows.length < READ_PAGE_SIZE) break;
          afterSeq = rows[rows.length - 1].seq;
        }
      }
      await client.query(
        'INSERT INTO inventory_setting (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
        [name, declared],
      );
      return rebuild;
    });
  }

  async learnedPaths(family: string): Promise<LearnedPaths> {
    const rows = await this.run<{ value: string }>(this.pool, 'SELECT value FROM inventory_setting WHERE name = $1', [
      learnedPathsSettingName(family),
    ]);
    return parseLearnedPaths(rows[0]?.value);
  }

  /** The setting row locked FOR UPDATE: waits for every write holding it FOR SHARE, and later writes read the new value. */
  async learnPath(family: string, path: string, cap: number): Promise<LearnedPaths> {
    return this.transaction(async (client) => {
      const learned = await this.lockLearned(client, family);
      const all = allLearned(learned);
      if (all.includes(path) || all.length >= cap) return learned;
      const next = withPathBuilding(learned, path);
      await this.writeLearned(client, family, next);
      return next;
    });
  }

  async lastSeq(family: string): Promise<number> {
    const rows = await this.run<{ seq: string | null }>(this.pool, 'SELECT max(seq) AS seq FROM inventory_record WHERE family = $1', [
      family,
    ]);
    return Number(rows[0]?.seq ?? 0);
  }

  readonly learnedPageRecords = POSTGRES_LEARNED_PAGE_RECORDS;

  /**
   * `LEARNED_PAGES_AT_ONCE` pages at once, each a transaction of its own: one page's statements
   * run in PostgreSQL while the service reads another's texts, where one page at a time left each
   * side waiting on the other (200k events: the service 9.8 µs of CPU a record and PostgreSQL
   * 13.3, the build 22.9 µs a record of wall time). Each page but the last ends where its
   * `limit`-th record is.
   */
  async buildLearnedRows(family: string, path: string, afterSeq: number, untilSeq: number, limit: number): Promise<number | undefined> {
    const ends = await this.transaction(async (client) => {
      // Planned as the page is (`LEARNED_PAGE_SETTINGS`): not a sort of every record left.
      await client.query(LEARNED_PAGE_SETTINGS);
      const found = await client.query<{ seq: string }>(LEARNED_PAGE_ENDS_SQL, [
        family,
        afterSeq,
        untilSeq,
        (LEARNED_PAGES_AT_ONCE - 1) * limit,
        limit,
      ]);
      return found.rows.map((row) => Number(row.seq));
    });
    const starts = [afterSeq, ...ends];
    const lasts = await Promise.all(starts.map((start, k) => this.buildLearnedPage(family, path, start, ends[k] ?? untilSeq, limit)));
    return lasts[lasts.length - 1] ?? lasts[lasts.length - 2];
  }

  /**
   * The records are locked FOR UPDATE: an update of one waits, or has committed and its new
   * document is read. One page per transaction whatever `sliceMs`: the work is the database's,
   * and a longer transaction would only hold those locks longer.
   */
  private async buildLearnedPage(
    family: string,
    path: string,
    afterSeq: number,
    untilSeq: number,
    limit: number,
  ): Promise<number | undefined> {
    const index = ValueIndex.of([path]);
    return this.transaction(async (client) => {
      await client.query(LEARNED_PAGE_SETTINGS);
      const page = await client.query<{ seq: string; doc: string }>(LEARNED_PAGE_SQL, [family, afterSeq, untilSeq, limit]);
      if (page.rows.length === 0) return undefined;
      const rows = docsForPath(page.rows, path);
      const last = rows[rows.length - 1].seq;
      await client.query(LEARNED_CLEAR_SQL, [afterSeq, family, path, `${path}.`, last]);
      await this.insertValues(client, family, rows, index);
      return last;
    });
  }

  /**
   * Then refreshes the value table's statistics: until autovacuum's next ANALYZE, PostgreSQL plans
   * by statistics taken before the path's rows existed (a number index it believed empty was
   * chosen for probes that read all 100k of its entries each).
   */
  async learnedPathReady(family: string, path: string): Promise<LearnedPaths> {
    let built = false;
    const learned = await this.transaction(async (client) => {
      const stored = await this.lockLearned(client, family);
      if (!stored.building.includes(path)) return stored;
      const next = withPathReady(stored, path);
      await this.writeLearned(client, family, next);
      built = true;
      return next;
    });
    if (built) await this.run(this.pool, 'ANALYZE inventory_value', []);
    return learned;
  }

  private async lockLearned(client: PoolClient, family: string): Promise<LearnedPaths> {
    const name = learnedPathsSettingName(family);
    await client.query('INSERT INTO inventory_setting (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      learnedPathsSetting({ building: [], ready: [] }),
    ]);
    const stored = await client.query<{ value: string }>('SELECT value FROM inventory_setting WHERE name = $1 FOR UPDATE', [name]);
    return parseLearnedPaths(stored.rows[0]?.value);
  }

  private async writeLearned(client: PoolClient, family: string, learned: LearnedPaths): Promise<void> {
    await client.query('UPDATE inventory_setting SET value = $2 WHERE name = $1', [
      learnedPathsSettingName(family),
      learnedPathsSetting(learned),
    ]);
  }

  /** Also what `insertInOneStatement` writes under: the setting this process's writes last read. */
  private readonly writeIndexes = new WriteIndexes();

  /**
   * `valueIndex` with the family's learned paths, read inside the write's transaction with the
   * setting row locked FOR SHARE until it commits: `learnPath` (FOR UPDATE) waits for this write,
   * and a write that starts after it reads the new value (READ COMMITTED re-reads a locked row).
   */
  private async writeIndex(client: PoolClient, family: string, valueIndex: ValueIndex): Promise<ValueIndex> {
    if (valueIndex === ValueIndex.EVERY_PATH) return valueIndex;
    const stored = await client.query<{ value: string }>({ ...READ_LEARNED_FOR_SHARE, values: [learnedPathsSettingName(family)] });
    return this.writeIndexes.of(family, valueIndex, stored.rows[0]?.value);
  }

  async ping(): Promise<void> {
    await this.run(this.pool, 'SELECT 1', []);
  }

  private async insertValues(
    client: PoolClient,
    family: string,
    records: { seq: number; doc: JsonObject }[],
    valueIndex: ValueIndex,
  ): Promise<void> {
    const values = valueColumns(
      records.map((record) => ({ key: record.seq, doc: record.doc })),
      valueIndex,
    );
    if (values.keys.length === 0) return;
    await client.query({ ...INSERT_VALUES, values: valueParams(values, await this.pathKeysOf(client, family, values.paths)) });
    if (values.multiValued.size > 0) {
      await client.query({ ...MARK_MULTI_VALUED, values: [family, JSON.stringify([...values.multiValued])] });
    }
  }

  /** Keys for the value rows' paths: see `PostgresPathKeys`. */
  private pathKeysOf(on: Pool | PoolClient, family: string, paths: readonly string[]): Promise<Map<string, number>> {
    const query = <T>(sql: string, params: unknown[]) => this.run<T>(on, sql, params);
    return this.pathKeys.keys(query, on !== this.pool, family, paths);
  }

  /** A read runs each statement on a connection of its own, so that the budget can cancel it. */
  private queries(client: Pool | PoolClient, budget?: QueryBudget): SelectionQueries {
    const within = <T>(statement: (on: Pool | PoolClient) => Promise<T>): Promise<T> => {
      if (!budget) return statement(client);
      if (client !== this.pool) return cancellable(this.pool, client as PoolClient, budget, () => statement(client));
      return this.onConnectionOfItsOwn(budget, statement);
    };
    return {
      rows: (fragment) => {
        // Outside a transaction only: grouped lookups and shared selections run on connections of their own.
        if (client !== this.pool) return within((on) => this.rows(on, fragment));
        const key = fragment.recordKey;
        if (key) return this.recordReads.read(key.family, key.id).then((row) => (row ? [row] : []));
        if (fragment.shareable) return this.selections.rows(fragment, budget);
        return within((on) => this.rows(on, fragment));
      },
      seqs: (fragment) => within((on) => this.seqs(on, fragment)),
      texts: (fragment) => within((on) => this.texts(on, fragment)),
    };
  }

  /** A connection of the pool's own; a database that cannot give one is unavailable (503), not a failed query. */
  private async connection(): Promise<PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw translate(error);
    }
  }

  /** A statement on a connection of its own, so that `stop` can cancel it (without `stop`, on any). */
  private async onConnectionOfItsOwn<T>(stop: StatementStop | undefined, statement: (on: Pool | PoolClient) => Promise<T>): Promise<T> {
    if (!stop) return statement(this.pool);
    const own = await this.connection();
    try {
      return await cancellable(this.pool, own, stop, () => statement(own));
    } finally {
      own.release();
    }
  }

  private rows(client: Pool | PoolClient, fragment: SqlFragment): Promise<StoredRow[]> {
    return this.recordRows<StoredRow>(client, fragment.sql, fragment.params);
  }

  /**
   * Rows of records (`r.seq, r.id, r.doc`, `doc` as its stored text; a shared statement's with
   * `g` first) of a statement written with `?` placeholders, through `queryRowArrays` (on a
   * connection of the pool's when given the pool, as `pool.query` would take one).
   */
  private async recordRows<T extends StoredRow>(client: Pool | PoolClient, sql: string, params: unknown[]): Promise<T[]> {
    const { text, name } = this.readStatements.of(sql);
    const on = client === this.pool ? await this.connection() : (client as PoolClient);
    try {
      return storedRows(await queryRowArrays(on, text, name, params)) as T[];
    } catch (error) {
      throw translate(error);
    } finally {
      if (on !== client) on.release();
    }
  }

  private async readRecordsNow(families: string[], ids: string[]): Promise<(StoredRow & { family: string })[]> {
    // Named, so each connection prepares it once and PostgreSQL plans it once, not at every turn.
    return withNumericSeqs(
      await this.run<StoredRow & { family: string }>(this.pool, READ_RECORDS_SQL, [families, ids], 'inventory-read-records'),
    );
  }

  private async seqs(client: Pool | PoolClient, fragment: SqlFragment): Promise<number[]> {
    const { text, name } = this.readStatements.of(fragment.sql);
    const result = await this.run<{ seq: string }>(client, text, fragment.params, name);
    return result.map((row) => Number(row.seq));
  }

  private async texts(client: Pool | PoolClient, fragment: SqlFragment): Promise<string[]> {
    const { text, name } = this.readStatements.of(fragment.sql);
    const result = await this.run<[string]>(client, text, fragment.params, name, 'array');
    return result.map(([text]) => text);
  }

  /** With `rowMode` 'array', each row is the array of its columns (the first column of `texts`, whatever its name). */
  private async run<T>(client: Pool | PoolClient, sql: string, params: unknown[], name?: string, rowMode?: 'array'): Promise<T[]> {
    try {
      return (await client.query({ text: sql, values: params, name, ...(rowMode && { rowMode }) })).rows as T[];
    } catch (error) {
      throw translate(error);
    }
  }

  /**
   * One transaction, retried when PostgreSQL chose it as a deadlock victim: a delete locks the
   * rows it matches in its own order while writes key-share-lock the records they reference,
   * and the two can cross. `work` is run again from the start, so it must not keep state.
   */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactionOnce(work);
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= DEADLOCK_ATTEMPTS) throw error;
      }
    }
  }

  private async transactionOnce<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connection();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw translate(error);
    } finally {
      client.release();
    }
  }
}

/** U+001E: JSON escapes every control character inside a string and allows none between tokens. */
const DOC_SEPARATOR = '\x1e';
/** The same, as `recordRows` names it in SQL; above the statements built from it when the module loads. */
const DOC_SEPARATOR_SQL = `chr(${DOC_SEPARATOR.charCodeAt(0)})`;
const DEADLOCK_DETECTED = '40P01';
const DEADLOCK_ATTEMPTS = 3;
const UNIQUE_VIOLATION = '23505';

/**
 * See `insertInOneStatement`: its statement as a plain INSERT, and as one that skips ids already
 * stored and answers which ids it wrote. The plain one writes every row or fails, so it answers
 * no ids: sending 1,000 back as a text[] and parsing them (postgres-array) was 5 % of the
 * service's CPU in W4 on PostgreSQL, for a list that was always the whole batch.
 */
const INSERT_NEW = named(insertStatement({ skipStored: false }));
const INSERT_SKIPPING_STORED = named(insertStatement({ skipStored: true }));

/**
 * A statement of constant text, named so that each connection parses it once and PostgreSQL
 * keeps its plan. Unnamed, the insert statement was parsed and planned at every create: in W2 on
 * PostgreSQL a statement (~8.5 records) took 1.75–1.80 ms unnamed and 1.16–1.30 ms named
 * (README "Performance", twenty-fourth session).
 */
function named(text: string): { text: string; name: string } {
  return { text, name: statementName('write', text) };
}

/*
 * The statements of the writes in a transaction whose plan cannot depend on a table's size:
 * inserts from their parameters, and a lookup of the learned paths' setting by its key. Writes
 * that find rows of large tables by their parameters (an update's FOR UPDATE read and its
 * UPDATE, a delete, the lock of required records) stay unnamed: PostgreSQL settles a named
 * statement on a generic plan after five runs, and one made while a family held 1,000 records
 * read all of the family's records for every later update once it held 16k (an update took
 * 2.8 ms for the FOR UPDATE read and 3.7 ms for the UPDATE; updates fell from ~1,000 to
 * ~300 a second on the store alone).
 */
const INSERT_IN_TRANSACTION = named(`INSERT INTO inventory_record (family, id, doc)
  SELECT $1, u.id, u.doc FROM ${recordRows('$2', '$3')}
  ORDER BY u.position
  ON CONFLICT (family, id) DO NOTHING RETURNING seq, id`);
const READ_LEARNED_FOR_SHARE = named('SELECT value FROM inventory_setting WHERE name = $1 FOR SHARE');
const INSERT_VALUES = named(`INSERT INTO inventory_value (seq, path_key, kind, text, num)
  SELECT v.id::bigint, v.path_key::int, v.kind, v.text, v.num::float8 FROM ${valueRows(1)}`);
const MARK_MULTI_VALUED = named(`${markMultiValued('$2')} ON CONFLICT DO NOTHING`);

function insertStatement({ skipStored }: { skipStored: boolean }): string {
  return `WITH fresh AS (
     SELECT $4::text IS NULL OR EXISTS (SELECT 1 FROM inventory_setting WHERE name = $4 AND value = $5 FOR SHARE) AS ok
   ),
   inserted AS (
     INSERT INTO inventory_record (family, id, doc)
     SELECT $1, u.id, u.doc FROM ${recordRows('$2', '$3')}
     WHERE (SELECT ok FROM fresh)
     ORDER BY u.position
     ${skipStored ? 'ON CONFLICT (family, id) DO NOTHING' : ''} RETURNING seq, id
   ),
   indexed AS (
     INSERT INTO inventory_value (seq, path_key, kind, text, num)
     SELECT inserted.seq, v.path_key::int, v.kind, v.text, v.num::float8
     FROM ${valueRows(6)}
     JOIN inserted ON inserted.id = v.id
   ),
   marked AS (
     ${markMultiValued('$11')} WHERE (SELECT ok FROM fresh) ON CONFLICT DO NOTHING
   )
   SELECT (SELECT ok FROM fresh) AS fresh${skipStored ? ', ARRAY(SELECT id FROM inserted) AS ids' : ''}`;
}

/*
 * Rows travel one parameter per column, laid side by side by ROWS FROM. As text[] parameters,
 * pg escaped every element in JavaScript (its arrayString): 14 % of the service's CPU samples in
 * W4 on PostgreSQL, and garbage besides. Ids and value columns go as JSON arrays, which
 * JSON.stringify writes natively. Docs go as their texts joined by `DOC_SEPARATOR` into a `text`
 * column (migration 1764600000000): as one JSON array, PostgreSQL lexed every doc twice, to
 * validate the parameter and to split it, for text it only ever hands back as it came.
 */

/** Record texts as `recordRows` splits them. */
function docsText(texts: readonly string[]): string {
  for (const text of texts) {
    // A text that is not JSON would split into records that were never sent; it can only come from a bug.
    if (text.includes(DOC_SEPARATOR)) throw new Error('a record text holds an unescaped U+001E, so it is not JSON');
  }
  return texts.join(DOC_SEPARATOR);
}

/** New records' docs, each as `newRecordText` gives it. */
function docsOf(records: readonly NewRecord[]): string {
  return docsText(records.map(newRecordText));
}

/**
 * A write's records by sequence number, within their family: `(family, seq)` is the table's only
 * index on `seq` (migration 1764700000000; plans: postgres-index.e2e-spec.ts).
 */
export const UPDATE_BY_SEQ_SQL = `UPDATE inventory_record r SET doc = u.doc FROM ${recordRows('$1', '$2')}
  WHERE r.family = $3 AND r.seq = u.id::bigint`;
export const DELETE_BY_SEQ_SQL = 'DELETE FROM inventory_record WHERE family = $1 AND seq = ANY($2::bigint[]) RETURNING seq, id';

/**
 * A learned path's build reads its page by walking an index in seq order to its limit, whatever
 * the statistics say: on a table not analyzed since its records came (a bulk load, before
 * autovacuum), PostgreSQL took the range for 4 rows, fetched all of it and sorted it (55 ms a
 * page for 50k events, less as the rest shrank), and a build of 200k events took 55 s.
 *
 * And a page commits without waiting for its WAL to reach the disk: until the path is ready, no
 * query reads its rows, and the transaction that makes it ready commits synchronously, which
 * flushes the WAL of every page before it; a crash before that loses at most pages that the
 * restart's build, from the first record, writes again. 200k events in pages of 2,000: 5.5-6.0 s
 * waiting for each page's flush, 5.1-5.2 s without.
 */
export const LEARNED_PAGE_SETTINGS = 'SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off; SET LOCAL synchronous_commit = off';
/**
 * A page's transaction costs round trips and a commit whatever its size: 200k events built in
 * 6.6-6.8 s with pages of 500, 4.7-5.7 with 1,000, 4.6-5.4 with 2,000, 4.5-4.7 with 4,000
 * (bench/store-reads.ts, 2026-12-02, pages committed as above). A page's JSON work holds the event loop: the longest
 * turn during a build 23 ms at 500, 19-27 at 1,000, 31-40 at 2,000 (p99 6, 7, 13-14 ms).
 */
export const POSTGRES_LEARNED_PAGE_RECORDS = 1000;
/** Pages of a learned path's build taken at once (`buildLearnedRows`). */
export const LEARNED_PAGES_AT_ONCE = 2;
/** Where each page of `$5` records after `$2` ends, among the first `$4` records up to `$3`. */
export const LEARNED_PAGE_ENDS_SQL = `SELECT seq FROM (
    SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM inventory_record WHERE family = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4
  ) page WHERE n % $5 = 0 ORDER BY seq`;
export const LEARNED_PAGE_SQL =
  'SELECT seq, doc FROM inventory_record WHERE family = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4 FOR UPDATE';
/**
 * The page's old rows of the path (a build restarted, or records updated since the path was
 * learned), by the (seq, path) index: `path_key + 0` keeps the text index out, which PostgreSQL
 * took while its statistics held no row of the path yet, reading every row built so far for each
 * page (0.1 ms a page at the start of a build of 100k events, 17 ms at its end; the whole build
 * 13.6 s for 200k events with the page settings alone, 4.9 s with both). One range of sequence
 * numbers, after `$1` up to the page's last record `$5`: the family's records in it are the page's,
 * and other families' rows have other keys. As a list of the page's 1,000 seqs it was a probe of
 * the index per record: 200k events, alternated four times, PostgreSQL spent 9.6-11.2 µs of CPU
 * a record and the build took 2.13-2.22 s, against 8.5-9.8 and 1.93-1.98 s (one run 2.35) as a
 * range; at 1M, alternated twice, 10.1 and 9.6 s against 10.7 and 8.8 (no difference in that noise).
 */
export const LEARNED_CLEAR_SQL = `DELETE FROM inventory_value WHERE seq > $1 AND seq <= $5
  AND path_key + 0 IN (SELECT key FROM inventory_value_path WHERE family = $2 AND (path = $3 OR starts_with(path, $4)))`;

/** `u(id, doc, position)` from a JSON array of ids (or seqs) and the docs of `docsText`. */
function recordRows(ids: string, docs: string): string {
  return `ROWS FROM (json_array_elements_text(${ids}::json), string_to_table(${docs}::text, ${DOC_SEPARATOR_SQL})) WITH ORDINALITY AS u(id, doc, position)`;
}

/** `v(id, path_key, kind, text, num)`, all text, from the five parameters of `valueParams` from `$first` on. */
function valueRows(first: number): string {
  const column = (offset: number) => `json_array_elements_text($${first + offset}::json)`;
  return `ROWS FROM (${[0, 1, 2, 3, 4].map(column).join(', ')}) AS v(id, path_key, kind, text, num)`;
}

/** Lists the paths of the JSON array `paths` as multi-valued in the family `$1` (migration 1764400000000). */
function markMultiValued(paths: string): string {
  return `INSERT INTO inventory_value_multi (family, path) SELECT $1, m.path FROM json_array_elements_text(${paths}::json) AS m(path)`;
}

/** The columns of `valueColumns` as `valueRows` takes them, each path as its key in `pathKeys`. */
function valueParams(values: ReturnType<typeof valueColumns>, pathKeys: ReadonlyMap<string, number>): string[] {
  const keys = values.paths.map((path) => pathKeys.get(path)!);
  return [values.keys, keys, values.kinds, values.texts, values.nums].map((column) => JSON.stringify(column));
}

/** The value rows of `records` as the columns `valueRows` takes, each row keyed by its record's `key`. */
function valueColumns<K>(records: readonly { key: K; doc: JsonObject }[], valueIndex: ValueIndex) {
  const columns = {
    keys: [] as K[],
    paths: [] as string[],
    kinds: [] as string[],
    texts: [] as (string | null)[],
    nums: [] as (number | null)[],
    multiValued: new Set<string>(),
  };
  for (const record of records) {
    const rows = indexedValues(record.doc, valueIndex);
    addMultiValuedPaths(rows, columns.multiValued);
    for (const value of rows) {
      columns.keys.push(record.key);
      columns.paths.push(value.path);
      columns.kinds.push(value.kind);
      columns.texts.push(value.text === null ? null : encodePostgresText(value.text));
      columns.nums.push(value.num);
    }
  }
  return columns;
}

function referenceKey(reference: RecordReference): string {
  return `${reference.family}\u0000${reference.id}`;
}

function translate(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code && UNAVAILABLE_CODES.has(code)) return new StoreUnavailableError(error);
  if (error instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(error.message))
    return new StoreUnavailableError(error);
  return error;
}

/**
 * The rows as pg's own queries would answer them, with `seq` (and `g`) as numbers: BIGINT comes
 * as text, and a sequence number stays far below 2^53. Rows of records (`seq, id, doc`, and `g`
 * first in a shared statement's) are built directly; any other columns (an ordered read's
 * `seq, value` pages) go through pg's parser for their type, as a float8 `value` must stay a number.
 */
function storedRows({ columns, rows }: RowArrays): (StoredRow & { g?: number })[] {
  const [first, ...rest] = columns.names;
  const shared = first === 'g';
  const recordColumns = shared ? rest : columns.names;
  if (recordColumns.length === 3 && recordColumns[0] === 'seq' && recordColumns[1] === 'id' && recordColumns[2] === 'doc') {
    if (!shared) return rows.map((row) => ({ seq: Number(row[0]), id: row[1]!, doc: row[2]! }));
    return rows.map((row) => ({ g: Number(row[0]), seq: Number(row[1]), id: row[2]!, doc: row[3]! }));
  }
  const parsers = columns.typeIds.map((typeId) => types.getTypeParser(typeId, 'text') as (text: string) => unknown);
  return withNumericSeqs(
    rows.map((row) => {
      const parsed: Record<string, unknown> = {};
      columns.names.forEach((name, at) => (parsed[name] = row[at] === null ? null : parsers[at](row[at])));
      return parsed as unknown as StoredRow & { g?: number };
    }),
  );
}

/** pg returns BIGINT as text; a sequence number stays far below 2^53. */
function withNumericSeqs<T extends { seq: number }>(rows: T[]): T[] {
  for (const row of rows) row.seq = Number(row.seq);
  return rows;
}
