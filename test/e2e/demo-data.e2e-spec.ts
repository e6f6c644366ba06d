import request from 'supertest';
import { createTestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

// README "Configuration", INVENTORY_DEMO_DATA: the demo records go into a new database, once,
// over real restarts of the app on one database.

const DEMO_LINK_TYPES = ['p2p', 'slice'];
const DEMO_AGENTS = ['firewall', 'nprobe'];

describe.each(databaseKinds())('demo data on %s', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => database?.drop());

  /** Starts the app on the suite's database with INVENTORY_DEMO_DATA, and answers the ids of both demo families. */
  async function startAndRead(demoData: 'true' | 'false', change?: (url: string) => Promise<void>): Promise<string[]> {
    const app = await createTestApp(kind, { database, env: { INVENTORY_DEMO_DATA: demoData } });
    try {
      await change?.(app.url);
      const types = await request(app.url).get('/type/network-link').set('Authorization', basic());
      const agents = await request(app.url).get('/catalog/agent').set('Authorization', bearer());
      const ids = (response: request.Response): string[] =>
        response.status === 404 ? [] : (response.body as { id: string }[]).map((record) => record.id);
      return [...ids(types), ...ids(agents)];
    } finally {
      await app.close();
    }
  }

  it('a new database gets them; a restart adds nothing, and a deleted one stays deleted', async () => {
    expect(await startAndRead('true')).toEqual([...DEMO_LINK_TYPES, ...DEMO_AGENTS]);
    const afterDelete = await startAndRead('true', async (url) => {
      expect((await request(url).delete('/type/network-link/slice').set('Authorization', basic())).status).toBe(205);
    });
    expect(afterDelete).toEqual(['p2p', ...DEMO_AGENTS]);
    expect(await startAndRead('true')).toEqual(['p2p', ...DEMO_AGENTS]);
  });

  it('a database first started without them does not get them on a later start with them', async () => {
    expect(await startAndRead('false')).toEqual([]);
    expect(await startAndRead('true')).toEqual([]);
  });
});
