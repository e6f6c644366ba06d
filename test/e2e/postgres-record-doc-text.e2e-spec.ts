import { DataSource } from 'typeorm';
import { recordStoreFor, SelectionSpec, ValueIndex } from '@inventory/crud';
import { MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';
import { PostgresRecordDocAsText1764600000000 } from '../../apps/inventory/src/migrations/1764600000000-postgres-record-doc-as-text';
import { migratingPostgresDatabase } from '../support/migrating-database';
import { describeOnPostgres } from '../support/test-databases';

/**
 * Migration 1764600000000 makes a PostgreSQL record's `doc` a `text` column. A `json` column kept
 * each record's text as sent, spacing and spellings included; the change of type must keep it to
 * the byte, and `down` must give the `json` column back with the same texts.
 */
describeOnPostgres('PostgreSQL record texts (1764600000000) on %s', 'migrate a PostgreSQL record table', () => {
  const database = migratingPostgresDatabase();
  let dataSource: DataSource;
  const before = MIGRATIONS.indexOf(PostgresRecordDocAsText1764600000000);
  const texts = ['{"id":"a", "n":1.0,"e":1E3}', '{"id":"b","s":"\\u001e\\u0041","k":{"2":0,"1":0}}', '{ "id" : "c" }'];

  const stored = async () =>
    (await dataSource.query<{ id: string; doc: string }[]>('SELECT id, doc::text AS doc FROM inventory_record ORDER BY id')).map(
      (row) => row.doc,
    );
  const docType = async () =>
    (
      await dataSource.query<{ data_type: string }[]>(
        "SELECT data_type FROM information_schema.columns WHERE table_name = 'inventory_record' AND column_name = 'doc'",
      )
    )[0].data_type;

  it('keeps every record text to the byte, up and down', async () => {
    dataSource = await database.open(MIGRATIONS.slice(0, before));
    await dataSource.runMigrations({ transaction: 'all' });
    for (const text of texts) {
      await dataSource.query("INSERT INTO inventory_record (family, id, doc) VALUES ('event', $1, $2)", [JSON.parse(text).id, text]);
    }
    expect(await docType()).toBe('json');
    await dataSource.destroy();

    dataSource = await database.open(MIGRATIONS);
    // This one and any that came after it.
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual(
      MIGRATIONS.slice(before).map((migration) => migration.name),
    );
    expect(await docType()).toBe('text');
    expect(await stored()).toEqual(texts);
    // The store reads them as they are, and writes a batch and an update after them.
    const store = recordStoreFor(dataSource);
    await store.insert(
      'event',
      [
        { id: 'd', doc: { id: 'd' }, text: '{"id":"d","t":"\\u001e"}' },
        { id: 'e', doc: { id: 'e' } },
      ],
      ValueIndex.EVERY_PATH,
    );
    const spec: SelectionSpec = { family: 'event', order: [], offset: 0, valueIndex: ValueIndex.EVERY_PATH };
    const read: string[] = [];
    for await (const page of store.read(spec)) read.push(...page.map((row) => row.doc));
    expect(read).toEqual([...texts, '{"id":"d","t":"\\u001e"}', '{"id":"e"}']);

    for (let undone = MIGRATIONS.length; undone > before; undone--) await dataSource.undoLastMigration({ transaction: 'all' });
    expect(await docType()).toBe('json');
    expect(await stored()).toEqual(read);
  });

  it('refuses a record text that holds the separator unescaped, writing nothing', async () => {
    await dataSource.runMigrations({ transaction: 'all' });
    const store = recordStoreFor(dataSource);
    await expect(
      store.insert('event', [{ id: 'f', doc: { id: 'f' }, text: '{"id":"f"}\u001e{"id":"g"}' }], ValueIndex.EVERY_PATH),
    ).rejects.toThrow('unescaped U+001E');
    expect(await dataSource.query("SELECT id FROM inventory_record WHERE id IN ('f', 'g')")).toEqual([]);
  });
});
