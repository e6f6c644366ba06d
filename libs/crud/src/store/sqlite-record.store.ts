import type { Database, Statement } from 'better-sqlite3';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { JsonObject } from '../core/query/query.types';
import { indexedValues } from './indexed-values';
import { inSeqOrder, RecordSelection, RowWindow, SelectionSpec, StoredRow } from './record-selection';
import { NewRecord, READ_PAGE_SIZE, RecordStore, UpdateDecision } from './record-store';
import { readSelection } from './selection-reader';
import { sqliteDialect } from './sql-dialect';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { SqlFragment } from './where-compiler';

/**
 * SQLite through better-sqlite3, which is synchronous: every write runs start to finish without
 * yielding, inside a savepoint of the transaction its group commits (SqliteGroupCommit), so
 * writes from concurrent requests can never interleave (TypeORM's shared connection would turn
 * them into savepoints of one another and lose some).
 * Reads yield between pages so a large read does not freeze other requests.
 */
export class SqliteRecordStore extends RecordStore {
  private readonly statements = new Map<string, Statement>();
  private readonly writes: SqliteGroupCommit;

  constructor(private readonly db: Database) {
    super();
    this.writes = new SqliteGroupCommit(db);
  }

  read(spec: SelectionSpec): AsyncIterable<StoredRow[]> {
    return readSelection(new RecordSelection(spec, sqliteDialect), {
      rows: (fragment) => this.all(fragment),
      seqs: (fragment) => this.seqs(fragment),
      betweenPages: () => yieldToEventLoop(),
    });
  }

  async insert(family: string, records: readonly NewRecord[]): Promise<boolean[]> {
    const insertRecord = this.statement(
      'INSERT INTO inventory_record (family, id, doc) VALUES (?, ?, ?) ON CONFLICT (family, id) DO NOTHING',
    );
    return this.writes.run(() =>
      records.map((record) => {
        const result = insertRecord.run(family, record.id, JSON.stringify(record.doc));
        if (result.changes === 0) return false;
        this.insertValues(Number(result.lastInsertRowid), family, record.doc);
        return true;
      }),
    );
  }

  async update(family: string, ids: readonly string[], decide: UpdateDecision): Promise<void> {
    const select = this.statement('SELECT seq, doc FROM inventory_record WHERE family = ? AND id = ?');
    const write = this.statement('UPDATE inventory_record SET doc = ? WHERE seq = ?');
    const clearValues = this.statement('DELETE FROM inventory_value WHERE seq = ?');
    await this.writes.run(() => {
      ids.forEach((id, index) => {
        const row = select.get(family, id) as { seq: number; doc: string } | undefined;
        const next = decide(index, row ? (JSON.parse(row.doc) as JsonObject) : undefined);
        if (!row || !next) return;
        write.run(JSON.stringify(next), row.seq);
        clearValues.run(row.seq);
        this.insertValues(row.seq, family, next);
      });
    });
  }

  async delete(spec: SelectionSpec): Promise<string[]> {
    const selection = new RecordSelection(spec, sqliteDialect);
    return this.writes.run(() => {
      const seqs = this.seqs(selection.candidateSeqs());
      const window = new RowWindow(selection);
      const deleted: string[] = [];
      for (let start = 0; start < seqs.length && !window.full; start += READ_PAGE_SIZE) {
        const page = seqs.slice(start, start + READ_PAGE_SIZE);
        const rows = window.admit(inSeqOrder(page, this.all(RecordSelection.rowsBySeq(page))));
        if (rows.length === 0) continue;
        const remove = RecordSelection.deleteBySeq(rows.map((row) => row.seq));
        this.statement(remove.sql).run(...remove.params);
        for (const row of rows) deleted.push(row.id);
      }
      return deleted;
    });
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  private insertValues(seq: number, family: string, doc: JsonObject): void {
    const insertValue = this.statement(
      'INSERT INTO inventory_value (seq, family, path, kind, text, num) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const value of indexedValues(doc)) insertValue.run(seq, family, value.path, value.kind, value.text, value.num);
  }

  private all(fragment: SqlFragment): StoredRow[] {
    return this.statement(fragment.sql).all(...fragment.params) as StoredRow[];
  }

  private seqs(fragment: SqlFragment): number[] {
    return this.statement(fragment.sql).pluck().all(...fragment.params) as number[];
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
