import type { Pool, PoolClient } from 'pg';
import { JsonObject } from '../core/query/query.types';
import { indexedValues } from './indexed-values';
import { inSeqOrder, RecordSelection, RowWindow, SelectionSpec, StoredRow } from './record-selection';
import { NewRecord, READ_PAGE_SIZE, RecordStore, StoreUnavailableError, UpdateDecision } from './record-store';
import { readSelection } from './selection-reader';
import { encodePostgresText, postgresDialect, toPostgresPlaceholders } from './sql-dialect';
import { SqlFragment } from './where-compiler';

/** Error classes that mean "the database is not there", not "the query was wrong". */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

/**
 * PostgreSQL through the pg pool that TypeORM opened. Several service processes may share the
 * database, so every write takes row locks (or relies on the primary key) inside a transaction
 * instead of trusting anything held in this process.
 */
export class PostgresRecordStore extends RecordStore {
  constructor(private readonly pool: Pool) {
    super();
  }

  read(spec: SelectionSpec): AsyncIterable<StoredRow[]> {
    return readSelection(new RecordSelection(spec, postgresDialect), {
      rows: (fragment) => this.rows(this.pool, fragment),
      seqs: (fragment) => this.seqs(this.pool, fragment),
    });
  }

  async insert(family: string, records: readonly NewRecord[]): Promise<boolean[]> {
    if (records.length === 0) return [];
    return this.transaction(async (client) => {
      const inserted = await client.query<{ seq: string; id: string }>(
        `INSERT INTO inventory_record (family, id, doc)
         SELECT $1, u.id, u.doc::json FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(id, doc, position)
         ORDER BY u.position
         ON CONFLICT (family, id) DO NOTHING RETURNING seq, id`,
        [family, records.map((record) => record.id), records.map((record) => JSON.stringify(record.doc))],
      );
      const seqById = new Map(inserted.rows.map((row) => [row.id, Number(row.seq)]));
      await this.insertValues(
        client,
        family,
        records.filter((record) => seqById.has(record.id)).map((record) => ({ seq: seqById.get(record.id)!, doc: record.doc })),
      );
      return records.map((record) => seqById.has(record.id));
    });
  }

  async update(family: string, ids: readonly string[], decide: UpdateDecision): Promise<void> {
    await this.transaction(async (client) => {
      // Locking in id order keeps two batches that touch the same records from deadlocking.
      const locked = await client.query<{ seq: string; id: string; doc: string }>(
        'SELECT seq, id, doc::text AS doc FROM inventory_record WHERE family = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE',
        [family, [...new Set(ids)]],
      );
      const current = new Map(locked.rows.map((row) => [row.id, { seq: Number(row.seq), doc: JSON.parse(row.doc) as JsonObject }]));
      const changed = new Map<string, { seq: number; doc: JsonObject }>();
      ids.forEach((id, index) => {
        const record = current.get(id);
        const next = decide(index, record?.doc);
        if (!record || !next) return;
        record.doc = next;
        changed.set(id, record);
      });
      if (changed.size === 0) return;
      const rows = [...changed.values()];
      await client.query(
        'UPDATE inventory_record r SET doc = u.doc::json FROM unnest($1::bigint[], $2::text[]) AS u(seq, doc) WHERE r.seq = u.seq',
        [rows.map((row) => row.seq), rows.map((row) => JSON.stringify(row.doc))],
      );
      await client.query('DELETE FROM inventory_value WHERE seq = ANY($1::bigint[])', [rows.map((row) => row.seq)]);
      await this.insertValues(client, family, rows);
    });
  }

  async delete(spec: SelectionSpec): Promise<string[]> {
    const selection = new RecordSelection(spec, postgresDialect);
    return this.transaction(async (client) => {
      const seqs = await this.seqs(client, selection.candidateSeqs());
      const window = new RowWindow(selection);
      const deleted: string[] = [];
      for (let start = 0; start < seqs.length && !window.full; start += READ_PAGE_SIZE) {
        const page = seqs.slice(start, start + READ_PAGE_SIZE);
        const rows = window.admit(inSeqOrder(page, await this.rows(client, RecordSelection.rowsBySeq(page))));
        if (rows.length === 0) continue;
        // RETURNING tells which rows this transaction really removed: a concurrent delete of the
        // same record makes it vanish here, and that caller answers 404 instead of a second 205.
        const removed = await client.query<{ id: string; seq: string }>(
          'DELETE FROM inventory_record WHERE seq = ANY($1::bigint[]) RETURNING seq, id',
          [rows.map((row) => row.seq)],
        );
        const removedSeqs = new Set(removed.rows.map((row) => Number(row.seq)));
        for (const row of rows) if (removedSeqs.has(row.seq)) deleted.push(row.id);
      }
      return deleted;
    });
  }

  async ping(): Promise<void> {
    await this.run(this.pool, 'SELECT 1', []);
  }

  private async insertValues(client: PoolClient, family: string, records: { seq: number; doc: JsonObject }[]): Promise<void> {
    const seqs: number[] = [];
    const paths: string[] = [];
    const kinds: string[] = [];
    const texts: (string | null)[] = [];
    const nums: (number | null)[] = [];
    for (const record of records) {
      for (const value of indexedValues(record.doc)) {
        seqs.push(record.seq);
        paths.push(value.path);
        kinds.push(value.kind);
        texts.push(value.text === null ? null : encodePostgresText(value.text));
        nums.push(value.num);
      }
    }
    if (seqs.length === 0) return;
    await client.query(
      `INSERT INTO inventory_value (seq, family, path, kind, text, num)
       SELECT u.seq, $1, u.path, u.kind, u.text, u.num
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::float8[]) AS u(seq, path, kind, text, num)`,
      [family, seqs, paths, kinds, texts, nums],
    );
  }

  private async rows(client: Pool | PoolClient, fragment: SqlFragment): Promise<StoredRow[]> {
    const sql = fragment.sql.replace('r.doc FROM', 'r.doc::text AS doc FROM');
    const result = await this.run<StoredRow>(client, toPostgresPlaceholders(sql), fragment.params);
    for (const row of result) row.seq = Number(row.seq);
    return result;
  }

  private async seqs(client: Pool | PoolClient, fragment: SqlFragment): Promise<number[]> {
    const result = await this.run<{ seq: string }>(client, toPostgresPlaceholders(fragment.sql), fragment.params);
    return result.map((row) => Number(row.seq));
  }

  private async run<T>(client: Pool | PoolClient, sql: string, params: unknown[]): Promise<T[]> {
    try {
      return (await client.query(sql, params)).rows as T[];
    } catch (error) {
      throw translate(error);
    }
  }

  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translate(error);
    }
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

function translate(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code && UNAVAILABLE_CODES.has(code)) return new StoreUnavailableError(error);
  if (error instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(error.message))
    return new StoreUnavailableError(error);
  return error;
}
