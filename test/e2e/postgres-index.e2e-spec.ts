import { DataSource } from 'typeorm';
import { parseRecordQuery, postgresDialect, RecordSelection, RecordStore } from '@inventory/crud';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const RECORDS = 100_000;
const kinds = databaseKinds().filter((kind) => kind === 'postgres');

if (kinds.length === 0) {
  it('needs TEST_DATABASE_URL to check PostgreSQL query plans', () => {
    expect(process.env.TEST_DATABASE_URL ?? '').toBe('');
  });
}

// describe.each refuses an empty table, so the PostgreSQL suite is declared only when it can run.
(kinds.length > 0 ? describe.each(kinds) : () => () => undefined)('query plans on %s with 100k events', (kind) => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const store = t.app.get(RecordStore);
    for (let start = 0; start < RECORDS; start += 5000) {
      const batch = Array.from({ length: 5000 }, (_, offset) => {
        const i = start + offset;
        return { id: `ev-${i}`, doc: { id: `ev-${i}`, source: `10.${i % 250}.${Math.floor(i / 250) % 250}.${i % 7}`, severity: i % 10, n: i, host: { name: `host-${i % 10_000}` } } };
      });
      await store.insert('event', batch);
    }
    dataSource = t.app.get(DataSource);
    await dataSource.query('ANALYZE');
  }, 180_000);
  afterAll(async () => t?.close());

  const plan = async (query: unknown) => {
    const { select: _select, ...parsed } = parseRecordQuery(query, { allowSelect: true });
    const sql = new RecordSelection({ family: 'event', ...parsed }, postgresDialect).candidateSeqs();
    let index = 0;
    const rows = await dataSource.query(`EXPLAIN ${sql.sql.replace(/\?/g, () => `$${++index}`)}`, sql.params);
    return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
  };

  // Selective filters (about ten matches in 100k), the case the value index exists for.
  it.each([
    ['equality on a nested field', { where: { equals: { target: 'host.name', expr: 'host-42' } } }],
    ['in on a field', { where: { in: { target: 'source', expr: ['10.1.1.1', '10.2.2.2'] } } }],
    ['exists', { where: { exists: { target: 'nothing.here' } } }],
    ['number equality', { where: { equals: { target: 'n', expr: 4242 } } }],
    ['a conjunction', { where: { and: [{ equals: { target: 'host.name', expr: 'host-7' } }, { gt: { target: 'severity', expr: 5 } }] } }],
  ])('%s uses the value index, never a sequential scan', async (_label, query) => {
    const text = await plan(query);
    expect(text).toMatch(/Index (Only )?Scan using inventory_value_(text|num)|Bitmap Index Scan on inventory_value_(text|num)/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  it('answers the filtered read over HTTP with the 10 matching records', async () => {
    const response = await request(t.url).get('/event').set('Authorization', bearer()).send({ where: { equals: { target: 'host.name', expr: 'host-42' } } });
    expect(response.status).toBe(200);
    expect(response.body.map((record: { id: string }) => record.id)).toEqual(Array.from({ length: 10 }, (_, k) => `ev-${42 + k * 10_000}`));
  });
});
