import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { POSTGRES_SESSION_OPTIONS, recordStoreFor } from '@inventory/crud';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { holding } from '../support/pool-connections';
import { createTestDatabase, describeOnPostgres, TestDatabase } from '../support/test-databases';

const startedWith = (client: PoolClient): string | undefined =>
  (client as unknown as { connectionParameters: { options?: string } }).connectionParameters.options;

const seqscan = async (client: PoolClient): Promise<string> =>
  ((await client.query('SHOW enable_seqscan')).rows[0] as { enable_seqscan: string }).enable_seqscan;

describeOnPostgres("the store's sessions on %s", 'check PostgreSQL sessions', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => database?.drop());

  // No statement goes ahead of a connection's first one: pg warns when one is queued behind
  // another on a client, and its next major version refuses it.
  it("opens every connection of the service's pool with sequential scans off, TypeORM's first included", async () => {
    const dataSource = await new DataSource(dataSourceOptions({ type: 'postgres', url: database.url })).initialize();
    try {
      recordStoreFor(dataSource);
      const pool = (dataSource.driver as unknown as { master: Pool }).master;
      await holding(pool, 4, async (clients) => {
        for (const client of clients) {
          expect(startedWith(client)).toContain(POSTGRES_SESSION_OPTIONS);
          expect(await seqscan(client)).toBe('off');
        }
      });
    } finally {
      await dataSource.destroy();
    }
  });

  it('gives a connection opened before the store its settings when first acquired, and later ones at start-up', async () => {
    const pool = new Pool({ connectionString: database.url, max: 4 });
    try {
      const before = await pool.connect();
      before.release();
      expect(startedWith(before) ?? '').not.toContain('enable_seqscan');
      const dataSource = { options: { type: 'postgres' }, driver: { master: pool } } as unknown as DataSource;
      recordStoreFor(dataSource);
      await holding(pool, 3, async (clients) => {
        expect(clients).toContain(before);
        for (const client of clients) {
          if (client !== before) expect(startedWith(client)).toContain(POSTGRES_SESSION_OPTIONS);
          expect(await seqscan(client)).toBe('off');
        }
      });
    } finally {
      await pool.end();
    }
  });
});
