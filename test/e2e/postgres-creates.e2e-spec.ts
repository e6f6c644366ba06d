import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { RecordStore, recordStoreFor, ValueIndex } from '@inventory/crud';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { holding } from '../support/pool-connections';
import { createTestDatabase, describeOnPostgres, TestDatabase } from '../support/test-databases';

const SKIPS_STORED_IDS = 'ON CONFLICT (family, id) DO NOTHING';

/** The statements prepared on every connection of the pool, each connection held at once so that all are listed. */
function prepared(pool: Pool): Promise<{ name: string; statement: string }[]> {
  return holding(pool, pool.options.max ?? 10, async (clients) => {
    const statements: { name: string; statement: string }[] = [];
    for (const client of clients) {
      statements.push(
        ...(await client.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements')).rows,
      );
    }
    return statements;
  });
}

async function preparedCreates(pool: Pool): Promise<{ name: string; statement: string }[]> {
  return (await prepared(pool)).filter(({ statement }) => statement.includes('INSERT INTO inventory_record'));
}

const create = (store: RecordStore, id: string) => store.insert('event', [{ id, doc: { id, source: 'a' } }], ValueIndex.EVERY_PATH);

describeOnPostgres('creates on %s', 'check PostgreSQL create statements', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let pool: Pool;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dataSource = await new DataSource(dataSourceOptions({ type: 'postgres', url: database.url })).initialize();
    await dataSource.runMigrations({ transaction: 'all' });
    pool = (dataSource.driver as unknown as { master: Pool }).master;
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  // Unnamed, the create statement was parsed and planned at every create (see `named` in the store).
  it('runs the create statement as a named statement, and the one that skips stored ids too', async () => {
    const store = recordStoreFor(dataSource);
    for (let i = 0; i < 5; i++) expect(await create(store, `named-${i}`)).toEqual(['inserted']);
    const plain = await preparedCreates(pool);
    expect(plain.length).toBeGreaterThan(0);
    for (const { name, statement } of plain) {
      expect(name).toMatch(/^inventory-write-/);
      expect(statement).not.toContain(SKIPS_STORED_IDS);
    }

    // A stored id fails the plain statement, which runs again skipping stored ids.
    expect(await create(store, 'named-0')).toEqual(['duplicate']);
    const skipping = (await preparedCreates(pool)).filter(({ statement }) => statement.includes(SKIPS_STORED_IDS));
    expect(skipping.length).toBeGreaterThan(0);
    for (const { name } of skipping) expect(name).toMatch(/^inventory-write-/);
  });

  // Through pg's pool.query, a failed statement closed its connection: 270-297 creates of stored ids a second.
  it('keeps its connection when a stored id fails the create statement', async () => {
    const store = recordStoreFor(dataSource);
    expect(await create(store, 'kept')).toEqual(['inserted']);
    let closed = 0;
    const count = () => closed++;
    pool.on('remove', count);
    try {
      for (let i = 0; i < 5; i++) expect(await create(store, 'kept')).toEqual(['duplicate']);
    } finally {
      pool.off('remove', count);
    }
    expect(closed).toBe(0);
  });

  it('runs the inserts of a create that requires records named, and the lookups of an update or a lock unnamed', async () => {
    const store = recordStoreFor(dataSource);
    const index = ValueIndex.of(['source']);
    expect(await create(store, 'target')).toEqual(['inserted']);
    for (let i = 0; i < 6; i++) {
      const id = `requiring-${i}`;
      expect(await store.insert('event', [{ id, doc: { id, source: 'b' }, requires: [{ family: 'event', id: 'target' }] }], index)).toEqual(
        ['inserted'],
      );
      expect(await store.update('event', [id], (_position, current) => current && { doc: { ...current, source: 'c' } }, index)).toEqual([
        undefined,
      ]);
    }
    const statements = await prepared(pool);
    const transactionInserts = statements.filter(({ statement }) => /^INSERT INTO inventory_(record|value) /.test(statement));
    expect(transactionInserts.map(({ statement }) => statement.slice(0, 28)).sort()).toEqual(
      expect.arrayContaining(['INSERT INTO inventory_record', 'INSERT INTO inventory_value ']),
    );
    for (const { name } of transactionInserts) expect(name).toMatch(/^inventory-write-/);
    // Their generic plan, made while the family is small, would read all of it once it is large.
    expect(statements.filter(({ statement }) => /^(UPDATE|DELETE|SELECT seq, id, doc|SELECT family, id)/.test(statement))).toEqual([]);
  });
});
