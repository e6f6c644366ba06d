import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const EVENTS = [
  { id: 'e1', source: '10.0.0.1', severity: 3, timestamp: '2026-01-01T10:00:00Z', tags: ['net', 'fw'], host: { name: 'alpha' } },
  { id: 'e2', source: '10.0.0.2', severity: 7, timestamp: '2026-01-02T10:00:00Z', tags: ['net'], host: { name: 'beta' } },
  { id: 'e3', source: '10.0.1.1', severity: '5', timestamp: '2025-12-31T23:59:59Z', host: { name: 'Alpha' } },
  {
    id: 'e4',
    source: '192.168.0.1',
    severity: 1,
    up: true,
    hits: [
      { id: 'h1', port: 22 },
      { id: 'h2', port: 443 },
    ],
  },
  { id: 'e5', note: null, hits: [] },
];

describe.each(databaseKinds())('query language over HTTP on %s', (kind) => {
  let t: TestApp;
  const query = (body: unknown) =>
    request(t.url)
      .get('/event')
      .set('Authorization', bearer())
      .send(body as object);
  const ids = async (body: unknown) => {
    const response = await query(body);
    if (response.status === 404) return [];
    expect(response.status).toBe(200);
    return response.body.map((record: { id: string }) => record.id);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await request(t.url).post('/event').set('Authorization', bearer()).send(EVENTS).expect(201);
  });
  afterAll(async () => t?.close());

  it.each([
    [{ equals: { target: 'source', expr: '10.0.0.1' } }, ['e1']],
    [{ equals: { target: 'severity', expr: '5' } }, ['e3']],
    [{ equals: { target: 'severity', expr: 7 } }, ['e2']],
    [{ equals: { target: 'up', expr: 'true' } }, ['e4']],
    [{ equals: { target: 'note', expr: null } }, ['e5']],
    [{ equals: { target: 'host.name', expr: 'alpha' } }, ['e1']],
    [{ equals: { target: 'tags', expr: 'fw' } }, ['e1']],
    [{ equals: { target: 'hits.port', expr: 443 } }, ['e4']],
    [{ gt: { target: 'severity', expr: 2 } }, ['e1', 'e2', 'e3']], // "5" is text, so it compares as text: "5" > "2"
    [{ lte: { target: 'timestamp', expr: '2026-01-01T10:00:00Z' } }, ['e1', 'e3']],
    [{ in: { target: 'source', expr: ['10.0.0.2', '192.168.0.1', 'x'] } }, ['e2', 'e4']],
    [{ exists: { target: 'hits' } }, ['e4']],
    [{ exists: { target: 'note' } }, []],
    [{ wildcard: { target: 'source', expr: '10.0.?.1' } }, ['e1', 'e3']],
    [{ wildcard: { target: 'host.name', expr: '*lph*' } }, ['e1', 'e3']],
    [{ reg_exp: { target: 'source', expr: '10\\.0\\.0\\.[0-9]+' } }, ['e1', 'e2']],
    [{ reg_exp: { target: 'host.name', expr: '(?i)alpha' } }, ['e1', 'e3']],
    [{ and: [{ exists: { target: 'tags' } }, { not: { equals: { target: 'tags', expr: 'fw' } } }] }, ['e2']],
    [{ or: { equals: { target: 'id', expr: 'e5' }, gt: { target: 'severity', expr: 6 } } }, ['e2', 'e5']],
    [{ not: { reg_exp: { target: 'source', expr: '10\\..*' } } }, ['e4', 'e5']],
    [{ equals: { target: 'source', expr: '10.0.0.1' }, exists: { target: 'tags' } }, ['e1']],
  ])('where %j', async (where, expected) => {
    expect(await ids({ where })).toEqual(expected);
  });

  it('orders by a field, numbers numerically, records without it last', async () => {
    expect(await ids({ where: { exists: { target: 'severity' } }, order: [{ target: 'severity', mode: 'desc' }] })).toEqual([
      'e2',
      'e1',
      'e4',
      'e3',
    ]);
    expect(await ids({ order: { target: 'timestamp' } })).toEqual(['e3', 'e1', 'e2', 'e4', 'e5']);
  });

  it('pages with limit, also after a regular expression filter', async () => {
    expect(await ids({ limit: { from: 1, to: 2 } })).toEqual(['e2', 'e3']);
    expect(await ids({ where: { reg_exp: { target: 'source', expr: '.*\\.1' } }, limit: { from: 1, to: 5 } })).toEqual(['e3', 'e4']);
    expect(await ids({ limit: { from: 10, to: 20 } })).toEqual([]);
  });

  it('projects nested paths and paths through lists, keeping the stored key order', async () => {
    const response = await query({ select: ['hits.port', 'severity'], where: { equals: { target: 'id', expr: 'e4' } } });
    expect(JSON.stringify(response.body)).toBe(JSON.stringify([{ id: 'e4', severity: 1, hits: [{ port: 22 }, { port: 443 }] }]));
  });

  it('does not stall on a catastrophic regular expression', async () => {
    await request(t.url)
      .post('/event')
      .set('Authorization', bearer())
      .send({ id: 'redos', text: `${'a'.repeat(5000)}!` })
      .expect(201);
    const response = await query({ where: { reg_exp: { target: 'text', expr: '(a+)+$' } } });
    expect(response.status).toBe(404);
  });

  it('streams a read of several pages as one valid JSON array in arrival order', async () => {
    const batch = Array.from({ length: 2500 }, (_, i) => ({ id: `bulk-${String(i).padStart(5, '0')}`, kind: 'bulk', i }));
    await request(t.url).post('/event').set('Authorization', bearer()).send(batch).expect(201);
    const all = await query({ where: { equals: { target: 'kind', expr: 'bulk' } } });
    expect(all.status).toBe(200);
    expect(all.body.map((record: { i: number }) => record.i)).toEqual(batch.map((record) => record.i));
    const everything = await request(t.url).get('/event').set('Authorization', bearer());
    expect(everything.body).toHaveLength(2500 + EVENTS.length + 1);
    const window = await query({
      where: { equals: { target: 'kind', expr: 'bulk' } },
      order: [{ target: 'i', mode: 'desc' }],
      limit: { from: 1000, to: 1001 },
    });
    expect(window.body.map((record: { i: number }) => record.i)).toEqual([1499, 1498]);
  });
});

describe('body limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { INVENTORY_BODY_LIMIT: '1kb' } });
  });
  afterAll(async () => t?.close());

  it('answers 413 with an envelope past INVENTORY_BODY_LIMIT and accepts a body under it', async () => {
    const big = await request(t.url)
      .post('/event')
      .set('Authorization', bearer())
      .send({ blob: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
    expect(big.body[0]).toMatchObject({ code: 413, error: true });
    const small = await request(t.url)
      .post('/event')
      .set('Authorization', bearer())
      .send({ blob: 'x'.repeat(500) });
    expect(small.status).toBe(201);
  });
});
