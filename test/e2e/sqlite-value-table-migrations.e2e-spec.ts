import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { recordStoreFor, ValueIndex } from '@inventory/crud';
import { dataSourceOptions, MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';
import { idsWithSource, LAYOUT_ANSWERS, LAYOUT_INDEX, LAYOUT_PATH_KEYS, layoutEvents } from '../support/text-layout-events';

/**
 * The migrations that rebuild SQLite's value table: 1764200000000 drops its foreign key for a
 * trigger, 1764300000000 names a row's family and path by an integer key. A database written
 * before them must come out of each with every value row, the same answers and the trigger;
 * and `down` must give back the layout before.
 */
describe('SQLite value table migrations (1764200000000, 1764300000000, 1764400000000)', () => {
  let dir: string;
  let dataSource: DataSource;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inventory-rebuild-'));
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (migrations: typeof MIGRATIONS) =>
    new DataSource({ ...dataSourceOptions({ type: 'sqlite', path: join(dir, 'inventory.sqlite') }), migrations }).initialize();
  const rows = (sql: string, params: unknown[] = []) => dataSource.query<Record<string, unknown>[]>(sql, params);
  const valueRows = async (from: string) =>
    (await rows(`SELECT seq, family, path, kind, text, num FROM ${from} ORDER BY seq, path, text`)).map((row) => ({ ...row }));
  const foreignKeys = async () => (await rows("SELECT * FROM pragma_foreign_key_list('inventory_value')")).length;
  const triggers = async () => (await rows("SELECT name FROM sqlite_master WHERE type = 'trigger'")).map((row) => row.name);
  const indexes = async () =>
    (await rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inventory_value' ORDER BY name")).map((row) => row.sql);

  /** `layoutEvents` as the first schema held them (family and path in every row). */
  async function writeFirstLayout(): Promise<void> {
    for (const { doc, values } of layoutEvents()) {
      await rows('INSERT INTO inventory_record (family, id, doc) VALUES (?, ?, ?)', ['event', doc.id, JSON.stringify(doc)]);
      const [{ seq }] = await rows('SELECT seq FROM inventory_record WHERE id = ?', [doc.id]);
      for (const [path, text] of values)
        await rows("INSERT INTO inventory_value (seq, family, path, kind, text, num) VALUES (?, 'event', ?, 's', ?, NULL)", [
          seq,
          path,
          text,
        ]);
    }
    await rows("INSERT INTO inventory_setting (name, value) VALUES ('value_index:event', ?)", [LAYOUT_INDEX.toSetting()]);
  }

  it('keeps every value row and answer through both, and gives each layout back on down', async () => {
    dataSource = await open(MIGRATIONS.slice(0, 2));
    await dataSource.runMigrations({ transaction: 'all' });
    await writeFirstLayout();
    const rowsBefore = await valueRows('inventory_value');
    expect(rowsBefore).toHaveLength(30 * 3);
    expect(await foreignKeys()).toBe(1);
    await dataSource.destroy();

    dataSource = await open(MIGRATIONS.slice(0, 3));
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual([
      'SqliteValueRowsCascadeByTrigger1764200000000',
    ]);
    expect(await valueRows('inventory_value')).toEqual(rowsBefore);
    expect(await foreignKeys()).toBe(0);
    expect(await triggers()).toEqual(['inventory_record_deleted']);
    const firstIndexes = await indexes();
    await dataSource.destroy();

    dataSource = await open(MIGRATIONS.slice(0, 4));
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual([
      'SqliteValuePathKeys1764300000000',
    ]);
    expect(await valueRows(NAMED_VALUE_ROWS)).toEqual(rowsBefore);
    expect((await rows('SELECT family, path FROM inventory_value_path ORDER BY key')).map((row) => ({ ...row }))).toEqual(LAYOUT_PATH_KEYS);
    expect(await indexes()).toEqual([
      'CREATE INDEX inventory_value_num ON inventory_value (path_key, num, seq) WHERE num IS NOT NULL',
      'CREATE INDEX inventory_value_seq ON inventory_value (seq, path_key)',
      'CREATE INDEX inventory_value_text ON inventory_value (path_key, text, seq)',
    ]);
    expect(await triggers()).toEqual(['inventory_record_deleted']);
    await dataSource.destroy();

    // 1764400000000 marks the paths some record holds two values at, from the rows stored.
    dataSource = await open(MIGRATIONS.slice(0, 5));
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual([
      'MultiValuedPaths1764400000000',
    ]);
    expect((await rows('SELECT path, multi FROM inventory_value_path ORDER BY key')).map((row) => ({ ...row }))).toEqual([
      { path: 'source', multi: 0 },
      { path: 'tags', multi: 1 },
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

    await dataSource.undoLastMigration({ transaction: 'all' });
    expect((await rows("SELECT name FROM pragma_table_info('inventory_value_path')")).map((row) => row.name)).toEqual([
      'key',
      'family',
      'path',
    ]);
    await dataSource.undoLastMigration({ transaction: 'all' });
    expect(await valueRows('inventory_value')).toEqual(rowsBefore);
    expect(await rows("SELECT name FROM sqlite_master WHERE name = 'inventory_value_path'")).toEqual([]);
    expect(await indexes()).toEqual(firstIndexes);
    expect(await triggers()).toEqual(['inventory_record_deleted']);

    await dataSource.undoLastMigration({ transaction: 'all' });
    expect(await foreignKeys()).toBe(1);
    expect(await triggers()).toEqual([]);
    expect(await valueRows('inventory_value')).toEqual(rowsBefore);
  });
});
