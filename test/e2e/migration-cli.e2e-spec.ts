import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { loadConfig } from '../../apps/inventory/src/config/load-config';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

describe.each(databaseKinds())('npm run migration:run on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database?.drop());

  it('creates the schema through ormconfig.ts, and a second run has nothing to do', async () => {
    const env = { ...process.env, DATABASE_URL: database.url };
    const first = await run('npm', ['run', '--silent', 'migration:run'], { cwd: ROOT, env });
    expect(first.stdout).toContain('InitialSchema1763700000000 has been executed successfully');
    const second = await run('npm', ['run', '--silent', 'migration:run'], { cwd: ROOT, env });
    expect(second.stdout).toContain('No migrations are pending');
    const dataSource = await new DataSource(dataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database)).initialize();
    try {
      const tables = ['inventory_record', 'inventory_value', 'inventory_setting', 'inventory_user'];
      for (const table of tables) expect(await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)).toHaveLength(1);
    } finally {
      await dataSource.destroy();
    }
  });
});
