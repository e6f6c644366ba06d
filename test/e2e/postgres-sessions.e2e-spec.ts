import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { LEARNED_PAGE_SETTINGS, POSTGRES_SESSION_OPTIONS, recordStoreFor } from '@inventory/crud';
import { MAKE_PATH_KEYS_SQL } from '../../libs/crud/src/store/postgres-path-keys';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { holding } from '../support/pool-connections';
import { createTestDatabase, describeOnPostgres, TestDatabase } from '../support/test-databases';

const startedWith = (client: PoolClient): string | undefined =>
  (client as unknown as { connectionParameters: { options?: string } }).connectionParameters.options;

const setting = async (client: PoolClient, name: 'enable_seqscan' | 'jit'): Promise<string> =>
  ((await client.query(`SHOW ${name}`)).rows[0] as Record<string, string>)[name];
const seqscan = (client: PoolClient): Promise<string> => setting(client, 'enable_seqscan');

describeOnPostgres("the store's sessions on %s", 'check PostgreSQL sessions', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => database?.drop());

  // No statement goes ahead of a connection's first one: pg warns when one is queued behind
  // another on a client, and its next major version refuses it.
  it("opens every connection of the service's pool with sequential scans and JIT compilation off, TypeORM's first included", async () => {
    const dataSource = await new DataSource(dataSourceOptions({ type: 'postgres', url: database.url })).initialize();
    try {
      recordStoreFor(dataSource);
      const pool = (dataSource.driver as unknown as { master: Pool }).master;
      await holding(pool, 4, async (clients) => {
        for (const client of clients) {
          expect(startedWith(client)).toContain(POSTGRES_SESSION_OPTIONS);
          expect(await seqscan(client)).toBe('off');
          expect(await setting(client, 'jit')).toBe('off');
        }
      });
    } finally {
      await dataSource.destroy();
    }
  });

  // Sorts are off in a build page, so the sort this statement cannot do without costs it
  // PostgreSQL's "disable" cost, far past jit_above_cost: with JIT on, each page that made a key
  // compiled it first (130-200 ms, against 0.3 ms to run it).
  it("makes a learned path's key inside a build page without compiling the statement", async () => {
    const dataSource = await new DataSource(dataSourceOptions({ type: 'postgres', url: database.url })).initialize();
    try {
      await dataSource.runMigrations({ transaction: 'all' });
      recordStoreFor(dataSource);
      const runner = dataSource.createQueryRunner();
      let plan: { Plan: { 'Actual Rows': number }; JIT?: unknown };
      try {
        // Rolled back: the key it makes is not kept.
        await runner.startTransaction();
        await runner.query(LEARNED_PAGE_SETTINGS);
        const [row] = (await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${MAKE_PATH_KEYS_SQL}`, [
          'event',
          ['a.path.nobody.learned'],
        ])) as {
          'QUERY PLAN': (typeof plan)[];
        }[];
        plan = row['QUERY PLAN'][0];
        await runner.rollbackTransaction();
      } finally {
        await runner.release();
      }
      expect(plan.Plan['Actual Rows']).toBe(1);
      expect(plan).not.toHaveProperty('JIT');
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
          expect(await setting(client, 'jit')).toBe('off');
        }
      });
    } finally {
      await pool.end();
    }
  });
});
