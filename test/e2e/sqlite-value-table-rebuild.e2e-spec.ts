import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { parseRecordQuery, recordStoreFor, RecordStore, SelectionSpec, ValueIndex } from '@inventory/crud';
import { dataSourceOptions, MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';

/**
 * Migration 1764200000000 rebuilds SQLite's value table without its foreign key. A database
 * written before it must come out with every value row, the same answers, and the trigger in
 * place of the key; and `down` must give the key back.
 */
describe('SQLite value table rebuilt without its foreign key (migration 1764200000000)', () => {
  let dir: string;
  let dataSource: DataSource;
  const index = ValueIndex.of(['source', 'tags']);
  const event = (n: number) => ({ id: `e${n}`, doc: { id: `e${n}`, source: `10.0.0.${n % 3}`, tags: ['a', `t${n}`], size: n } });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inventory-rebuild-'));
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (migrations: typeof MIGRATIONS) =>
    new DataSource({ ...dataSourceOptions({ type: 'sqlite', path: join(dir, 'inventory.sqlite') }), migrations }).initialize();
  const rows = (sql: string) => dataSource.query<Record<string, unknown>[]>(sql);
  const valueRows = async () =>
    (await rows('SELECT seq, family, path, kind, text, num FROM inventory_value ORDER BY seq, path, text')).map((row) => ({ ...row }));
  const foreignKeys = async () => (await rows("SELECT * FROM pragma_foreign_key_list('inventory_value')")).length;
  const triggers = async () => (await rows("SELECT name FROM sqlite_master WHERE type = 'trigger'")).map((row) => row.name);
  const idsFrom = async (store: RecordStore, source: string) => {
    const ids: string[] = [];
    const { where } = parseRecordQuery({ where: { equals: { target: 'source', expr: source } } }, { allowSelect: false });
    const spec: SelectionSpec = { family: 'event', where, order: [], offset: 0, valueIndex: index };
    for await (const page of store.read(spec)) ids.push(...page.map((row) => row.id));
    return ids;
  };

  it('keeps every value row and answer, swaps the key for the trigger, and gives the key back on down', async () => {
    dataSource = await open(MIGRATIONS.slice(0, 2));
    await dataSource.runMigrations({ transaction: 'all' });
    const before = recordStoreFor(dataSource);
    await before.adoptValueIndex('event', index);
    await before.insert(
      'event',
      Array.from({ length: 30 }, (_, n) => event(n)),
      index,
    );
    const rowsBefore = await valueRows();
    const answerBefore = await idsFrom(before, '10.0.0.1');
    expect(rowsBefore).toHaveLength(30 * 3);
    expect(answerBefore).toHaveLength(10);
    expect(await foreignKeys()).toBe(1);
    await dataSource.destroy();

    dataSource = await open(MIGRATIONS);
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual([
      'SqliteValueRowsCascadeByTrigger1764200000000',
    ]);
    expect(await valueRows()).toEqual(rowsBefore);
    expect(await idsFrom(recordStoreFor(dataSource), '10.0.0.1')).toEqual(answerBefore);
    expect(await foreignKeys()).toBe(0);
    expect(await triggers()).toEqual(['inventory_record_deleted']);
    const indexes = await rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inventory_value' ORDER BY name");
    expect(indexes.map((row) => row.name)).toEqual(['inventory_value_num', 'inventory_value_seq', 'inventory_value_text']);

    await dataSource.undoLastMigration({ transaction: 'all' });
    expect(await foreignKeys()).toBe(1);
    expect(await triggers()).toEqual([]);
    expect(await valueRows()).toEqual(rowsBefore);
  });
});
