import { DataSource } from 'typeorm';
import { dataSourceOptions, MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';
import { createTestDatabase, TestDatabase } from './test-databases';

/**
 * A fresh PostgreSQL database for one suite of migration tests, opened with whichever migrations
 * a step of the test names; whatever it opened is closed, and the database dropped, after the suite.
 */
export function migratingPostgresDatabase(): { open(migrations: typeof MIGRATIONS): Promise<DataSource> } {
  let database: TestDatabase | undefined;
  const opened: DataSource[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const dataSource of opened) if (dataSource.isInitialized) await dataSource.destroy();
    await database?.drop();
  });
  return {
    async open(migrations) {
      const dataSource = new DataSource({ ...dataSourceOptions({ type: 'postgres', url: database!.url }), migrations });
      opened.push(dataSource);
      return dataSource.initialize();
    },
  };
}
