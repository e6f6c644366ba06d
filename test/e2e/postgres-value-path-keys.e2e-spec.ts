import { DataSource } from 'typeorm';
import { recordStoreFor, ValueIndex } from '@inventory/crud';
import { MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';
import { PostgresValuePathKeys1764500000000 } from '../../apps/inventory/src/migrations/1764500000000-postgres-value-path-keys';
import type { Pool } from 'pg';
import { PostgresPathKeys } from '../../libs/crud/src/store/postgres-path-keys';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';
import { migratingPostgresDatabase } from '../support/migrating-database';
import { describeOnPostgres } from '../support/test-databases';
import { idsWithSource, LAYOUT_ANSWERS, LAYOUT_INDEX, LAYOUT_PATH_KEYS, layoutEvents } from '../support/text-layout-events';

/**
 * Migration 1764500000000 names a PostgreSQL value row's family and path by an integer key, as
 * SQLite's 1764300000000 did. A database written before it must come out with every value row,
 * the same answers and the trigger that deletes rows with their record; `down` must give back
 * the layout before.
 */
describeOnPostgres('PostgreSQL value path keys (1764500000000) on %s', 'migrate a PostgreSQL value table', () => {
  const database = migratingPostgresDatabase();
  let dataSource: DataSource;
  const before = MIGRATIONS.indexOf(PostgresValuePathKeys1764500000000);

  const rows = (sql: string, params: unknown[] = []) => dataSource.query<Record<string, unknown>[]>(sql, params);
  const valueRows = async (from: string) =>
    (await rows(`SELECT seq::int AS seq, family, path, kind, text, num FROM ${from} v ORDER BY seq, path, text`)).map((row) => ({
      ...row,
    }));
  const indexes = async () =>
    (await rows("SELECT indexdef FROM pg_indexes WHERE tablename = 'inventory_value' ORDER BY indexname")).map((row) => row.indexdef);

  /** `layoutEvents` as the layout before held them (family and path in every row). */
  async function writeTextLayout(): Promise<void> {
    for (const { doc, values } of layoutEvents()) {
      const [{ seq }] = await rows("INSERT INTO inventory_record (family, id, doc) VALUES ('event', $1, $2) RETURNING seq", [
        doc.id,
        JSON.stringify(doc),
      ]);
      for (const [path, text] of values)
        await rows("INSERT INTO inventory_value (seq, family, path, kind, text, num) VALUES ($1, 'event', $2, 's', $3, NULL)", [
          seq,
          path,
          text,
        ]);
    }
    await rows("INSERT INTO inventory_setting (name, value) VALUES ('value_index:event', $1)", [LAYOUT_INDEX.toSetting()]);
    await rows("INSERT INTO inventory_value_multi (family, path) VALUES ('event', 'tags')");
  }

  it('keeps every value row and answer, and gives the text layout back on down', async () => {
    dataSource = await database.open(MIGRATIONS.slice(0, before));
    await dataSource.runMigrations({ transaction: 'all' });
    await writeTextLayout();
    const rowsBefore = await valueRows('inventory_value');
    expect(rowsBefore).toHaveLength(30 * 3);
    const textIndexes = await indexes();
    await dataSource.destroy();

    dataSource = await database.open(MIGRATIONS);
    // The store is written for the newest layout, so every later migration runs too.
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual(
      MIGRATIONS.slice(before).map((migration) => migration.name),
    );
    expect(await valueRows(NAMED_VALUE_ROWS)).toEqual(rowsBefore);
    expect((await rows('SELECT family, path FROM inventory_value_path ORDER BY key')).map((row) => ({ ...row }))).toEqual(LAYOUT_PATH_KEYS);
    expect(await indexes()).toEqual([
      'CREATE INDEX inventory_value_num ON public.inventory_value USING btree (path_key, num, seq) WHERE (num IS NOT NULL)',
      'CREATE INDEX inventory_value_seq ON public.inventory_value USING btree (seq, path_key)',
      'CREATE INDEX inventory_value_text ON public.inventory_value USING btree (path_key, "left"(text, 200), seq)',
    ]);
    const store = recordStoreFor(dataSource);
    for (const [source, ids] of LAYOUT_ANSWERS) expect(await idsWithSource(store, source)).toEqual(ids);
    // The store writes the new layout, under the keys the migration gave, and a new path gets its own.
    await store.insert('event', [{ id: 'new', doc: { id: 'new', source: '10.0.0.1', tags: ['b'], other: 1 } }], ValueIndex.EVERY_PATH);
    expect(await idsWithSource(store, '10.0.0.1')).toContain('new');
    expect((await rows('SELECT path FROM inventory_value_path ORDER BY key')).map((row) => row.path)).toEqual(['source', 'tags', 'other']);
    // The trigger deletes a record's rows with it.
    await rows("DELETE FROM inventory_record WHERE id = 'new'");
    expect(await valueRows(NAMED_VALUE_ROWS)).toEqual(rowsBefore);

    for (let undone = MIGRATIONS.length; undone > before; undone--) await dataSource.undoLastMigration({ transaction: 'all' });
    expect(await valueRows('inventory_value')).toEqual(rowsBefore);
    expect(await rows("SELECT 1 FROM pg_tables WHERE tablename = 'inventory_value_path'")).toEqual([]);
    expect(await indexes()).toEqual(textIndexes);
    await rows("DELETE FROM inventory_record WHERE id = 'e0'");
    expect(await valueRows('inventory_value')).toEqual(rowsBefore.filter((row) => row.seq !== rowsBefore[0].seq));
  });

  // A key made in a transaction that rolls back is gone from the table; had it been kept, later
  // writes would file their rows under a key that no query looks up.
  it('keeps no key that a rolled-back transaction made', async () => {
    await dataSource.runMigrations({ transaction: 'all' });
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const keys = new PostgresPathKeys();
    const client = await pool.connect();
    try {
      const onClient = async <T>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as T[];
      await client.query('BEGIN');
      const made = await keys.keys(onClient, true, 'event', ['rolled', 'source']);
      expect(made.get('rolled')).toEqual(expect.any(Number));
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const onPool = async <T>(sql: string, params: unknown[]) => (await pool.query(sql, params)).rows as T[];
    const stored = async (path: string) =>
      (await rows('SELECT key FROM inventory_value_path WHERE family = $1 AND path = $2', ['event', path]))[0]?.key;
    const after = await keys.keys(onPool, false, 'event', ['rolled', 'source']);
    expect(after.get('rolled')).toBe(await stored('rolled'));
    expect(after.get('source')).toBe(await stored('source'));
  });
});
