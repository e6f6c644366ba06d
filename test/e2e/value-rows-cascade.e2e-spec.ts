import Database from 'better-sqlite3';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import request from 'supertest';
import { RecordService, recordServiceToken } from '@inventory/crud';
import { EVENT_FAMILY } from '../../apps/inventory/src/families/event/event.module';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

/**
 * A record's value rows go with it, whoever deletes it: the service, or another client of the
 * database (a raw `DELETE`), even one that does not enforce foreign keys. Triggers do it
 * (migrations 1764100000000 and 1764200000000), so that inserts pay no per-row key check. A row
 * left behind would make queries on an indexed path count a record that is gone.
 */
describe.each(databaseKinds())('value rows of deleted records on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  const events = [
    { id: 'v1', source: '198.51.100.1', timestamp: '2026-11-25T10:00:00Z', tags: ['a', 'b'] },
    { id: 'v2', source: '198.51.100.1', timestamp: '2026-11-25T10:00:01Z', tags: ['a'] },
    { id: 'v3', source: '198.51.100.1', timestamp: '2026-11-25T10:00:02Z' },
    { id: 'v4', source: '198.51.100.2', timestamp: '2026-11-25T10:00:03Z' },
    { id: 'v5', source: '198.51.100.3', timestamp: '2026-11-25T10:00:04Z' },
  ];
  const sql = (text: string) =>
    kind === 'postgres' ? text.replace(/\?/g, (_mark, offset: number) => `$${text.slice(0, offset).split('?').length}`) : text;
  const query = (text: string, params: unknown[]) => t.app.get(DataSource).query<Record<string, unknown>[]>(sql(text), params);
  const valueRows = async (seq: number) => Number((await query('SELECT count(*) AS n FROM inventory_value WHERE seq = ?', [seq]))[0].n);
  const seqOf = async (id: string) =>
    Number((await query("SELECT seq FROM inventory_record WHERE family = 'event' AND id = ?", [id]))[0].seq);
  const bySource = async (source: string, window = {}) => {
    const response = await request(t.url)
      .get('/event')
      .set('Authorization', bearer())
      .send({ where: { equals: { target: 'source', expr: source } }, ...window });
    return response.status === 200 ? (response.body as { id: string }[]).map((record) => record.id) : response.status;
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    t = await createTestApp(kind, { database });
    // Events declare only `source`; a query on `timestamp` teaches it, so that every event
    // written after has two value rows, one of them a learned path's.
    const teach = { where: { equals: { target: 'timestamp', expr: 'x' } } };
    expect((await request(t.url).get('/event').set('Authorization', bearer()).send(teach)).status).toBe(404);
    await t.app.get<RecordService>(recordServiceToken(EVENT_FAMILY), { strict: false }).learnedIndex.settled();
    expect((await request(t.url).post('/event').set('Authorization', bearer()).send(events)).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("a delete through the API takes the record's value rows, and no other record's", async () => {
    const [v1, v2] = [await seqOf('v1'), await seqOf('v2')];
    expect(await valueRows(v1)).toBe(2);
    expect((await request(t.url).delete('/event/v1').set('Authorization', bearer())).status).toBe(205);
    expect(await valueRows(v1)).toBe(0);
    expect(await valueRows(v2)).toBe(2);
    expect(await bySource('198.51.100.1')).toEqual(['v2', 'v3']);
  });

  it("another client's delete takes them too, so windows count only the records that are there", async () => {
    const v2 = await seqOf('v2');
    await query("DELETE FROM inventory_record WHERE family = 'event' AND id = ?", ['v2']);
    expect(await valueRows(v2)).toBe(0);
    expect(await bySource('198.51.100.1', { limit: { from: 0, to: 0 } })).toEqual(['v3']);
    expect(await bySource('198.51.100.2')).toEqual(['v4']);
  });

  it('so does the delete of a client in another process that enforces no foreign keys (the sqlite3 shell by default)', async () => {
    const v5 = await seqOf('v5');
    expect(await valueRows(v5)).toBe(2);
    await deleteAsAnotherClient("DELETE FROM inventory_record WHERE family = 'event' AND id = 'v5'");
    expect(await valueRows(v5)).toBe(0);
    expect(await bySource('198.51.100.3')).toBe(404);
  });

  async function deleteAsAnotherClient(statement: string): Promise<void> {
    if (kind === 'postgres') {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      await client.query(statement);
      await client.end();
      return;
    }
    const db = new Database(database.url.slice('sqlite:'.length));
    db.pragma('foreign_keys = OFF');
    db.prepare(statement).run();
    db.close();
  }
});
