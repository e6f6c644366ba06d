import { DataSource } from 'typeorm';
import { JsonObject, recordStoreFor, SelectionSpec, ValueIndex } from '@inventory/crud';
import { MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';
import { PostgresRecordsKeyedByFamily1764700000000 } from '../../apps/inventory/src/migrations/1764700000000-postgres-records-keyed-by-family';
import { migratingPostgresDatabase } from '../support/migrating-database';
import { describeOnPostgres } from '../support/test-databases';

/**
 * Migration 1764700000000 drops the primary key on a PostgreSQL record's `seq`: every statement
 * that finds records by `seq` names their family and goes through `(family, seq)`. Two families
 * whose records interleave in `seq` must each read, update and delete only their own, before and
 * after `down` gives the key back.
 */
describeOnPostgres('PostgreSQL records keyed by family (1764700000000) on %s', 'migrate a PostgreSQL record table', () => {
  const database = migratingPostgresDatabase();
  let dataSource: DataSource;
  const before = MIGRATIONS.indexOf(PostgresRecordsKeyedByFamily1764700000000);
  const index = ValueIndex.of(['kind']);

  const primaryKey = async () =>
    (
      await dataSource.query<{ columns: string }[]>(
        `SELECT string_agg(a.attname, ',' ORDER BY a.attnum) AS columns FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
         WHERE c.conrelid = 'inventory_record'::regclass AND c.contype = 'p'`,
      )
    )[0].columns;
  const read = async (family: string, where?: SelectionSpec['where']) => {
    const store = recordStoreFor(dataSource);
    const ids: string[] = [];
    for await (const page of store.read({ family, order: [], offset: 0, valueIndex: index, where })) ids.push(...page.map((row) => row.id));
    return ids;
  };
  const kindIs = (kind: string): SelectionSpec['where'] => ({ kind: 'compare', op: 'equals', path: ['kind'], value: kind });

  it('finds, updates and deletes each family’s records by sequence number, up and down', async () => {
    dataSource = await database.open(MIGRATIONS.slice(0, before));
    await dataSource.runMigrations({ transaction: 'all' });
    expect(await primaryKey()).toBe('seq');
    const store = recordStoreFor(dataSource);
    // Interleaved: the families' sequence numbers alternate.
    for (const id of ['1', '2', '3']) {
      for (const family of ['event', 'network-link']) await store.insert(family, [{ id, doc: { id, kind: 'a' } }], index);
    }
    await dataSource.destroy();

    dataSource = await database.open(MIGRATIONS);
    expect((await dataSource.runMigrations({ transaction: 'all' })).map((migration) => migration.name)).toEqual(
      MIGRATIONS.slice(before).map((migration) => migration.name),
    );
    expect(await primaryKey()).toBeNull();
    const keyed = recordStoreFor(dataSource);
    expect(await read('event', kindIs('a'))).toEqual(['1', '2', '3']);
    await keyed.update('event', ['2'], (_index, current) => ({ doc: { ...(current as JsonObject), kind: 'b' } }), index);
    expect(await read('event', kindIs('b'))).toEqual(['2']);
    expect(await read('network-link', kindIs('a'))).toEqual(['1', '2', '3']);
    expect(await keyed.delete({ family: 'event', order: [], offset: 0, valueIndex: index, where: kindIs('a') })).toEqual(['1', '3']);
    expect(await read('event')).toEqual(['2']);
    expect(await read('network-link')).toEqual(['1', '2', '3']);

    await dataSource.undoLastMigration({ transaction: 'all' });
    expect(await primaryKey()).toBe('seq');
    expect(await read('network-link', kindIs('a'))).toEqual(['1', '2', '3']);
    expect(await read('event', kindIs('b'))).toEqual(['2']);
  });
});
