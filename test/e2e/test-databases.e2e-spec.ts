import { Client } from 'pg';
import { createTestDatabase, describeOnPostgres } from '../support/test-databases';

describeOnPostgres('dropping a test database on %s', 'check how test databases are dropped', () => {
  // Why: see CLOSING_GRACE_MS in test/support/test-databases.ts.
  it('lets a connection that is closing leave by itself before forcing the rest off', async () => {
    const database = await createTestDatabase('postgres');
    const client = new Client({ connectionString: database.url });
    const errors: string[] = [];
    client.on('error', (error: Error & { code?: string }) => errors.push(error.code ?? error.message));
    await client.connect();
    const closing = new Promise<void>((closed) => setTimeout(() => void client.end().then(closed), 200));
    await database.drop();
    await closing;
    expect(errors).toEqual([]);
  });
});
