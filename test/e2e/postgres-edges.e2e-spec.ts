import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

// Values that one database takes in its stride and the other refuses or mangles.
describe.each(databaseKinds())('values at the edges of the databases on %s', (kind) => {
  let t: TestApp;
  const post = (body: unknown) =>
    request(t.url)
      .post('/event')
      .set('Authorization', bearer())
      .send(body as object);
  const ids = async (where: unknown) => {
    const response = await request(t.url).get('/event').set('Authorization', bearer()).send({ where });
    return response.status === 404 ? [] : response.body.map((record: { id: string }) => record.id);
  };
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('stores, finds and orders strings holding U+0000 and U+0001, next to other records of the batch', async () => {
    const response = await post([
      { id: 'nul', text: 'a\u0000b' },
      { id: 'soh', text: 'a\u0001b' },
      { id: 'plain', text: 'a' },
    ]);
    expect(response.status).toBe(201);
    expect((await request(t.url).get('/event/nul').set('Authorization', bearer())).body).toEqual([{ id: 'nul', text: 'a\u0000b' }]);
    expect(await ids({ equals: { target: 'text', expr: 'a\u0000b' } })).toEqual(['nul']);
    expect(await ids({ gt: { target: 'text', expr: 'a' } })).toEqual(['nul', 'soh']);
    expect(await ids({ lt: { target: 'text', expr: 'a\u0001' } })).toEqual(['nul', 'plain']);
  });

  // What each way of sending rows must escape: a text[] literal its quotes, backslashes, braces,
  // commas and a bare NULL; JSON its quotes, backslashes and control characters.
  it('stores, finds and updates ids and values holding the characters an array literal or JSON escapes', async () => {
    const awkward = ['quo"te', 'back\\slash', '{brace,comma}', 'NULL', 'tab\there', 'astral 𝄞'];
    // Ids take no control characters: the tab stays in the value only.
    const records = awkward.map((text, i) => ({ id: `odd ${text.replace('\t', ' ')}`, text, size: -0.5 * (i + 1), list: [text, null] }));
    expect((await post(records)).status).toBe(201);
    for (const record of records) {
      const stored = await request(t.url)
        .get(`/event/${encodeURIComponent(record.id)}`)
        .set('Authorization', bearer());
      expect(stored.body).toEqual([record]);
      expect(await ids({ equals: { target: 'text', expr: record.text } })).toEqual([record.id]);
    }
    expect(await ids({ lt: { target: 'size', expr: -2.5 } })).toEqual(records.slice(5).map((record) => record.id));

    const update = await request(t.url)
      .put('/event')
      .set('Authorization', bearer())
      .send(records.map((record) => ({ id: record.id, text: `${record.text}"2` })));
    expect(update.status).toBe(200);
    for (const record of records) {
      expect(await ids({ equals: { target: 'text', expr: `${record.text}"2` } })).toEqual([record.id]);
      expect(await ids({ equals: { target: 'text', expr: record.text } })).toEqual([]);
    }
    const stored = await request(t.url)
      .get(`/event/${encodeURIComponent(records[0].id)}`)
      .set('Authorization', bearer());
    expect(stored.body).toEqual([{ ...records[0], text: 'quo"te"2' }]);
  });

  it('indexes and finds long strings that do not compress', async () => {
    const long = randomBytes(6000).toString('base64');
    expect((await post({ id: 'long', text: long })).status).toBe(201);
    expect(await ids({ equals: { target: 'text', expr: long } })).toEqual(['long']);
    expect(await ids({ equals: { target: 'text', expr: `${long.slice(0, 200)}different` } })).toEqual([]);
  });

  it('answers queries on paths too long to index', async () => {
    const key = 'k'.repeat(120);
    const record = { id: 'deep-key', [key]: { [key]: { [key]: 'found' } } };
    expect((await post(record)).status).toBe(201);
    expect(await ids({ equals: { target: `${key}.${key}.${key}`, expr: 'found' } })).toEqual(['deep-key']);
  });

  it('creates the new records of a batch that holds a stored id, and indexes each once (PostgreSQL: a plain INSERT, then again skipping stored ids)', async () => {
    expect((await post({ id: 'kept', marker: 'first', size: 1 })).status).toBe(201);
    const response = await post([
      { id: 'fresh-1', marker: 'batch', size: 2 },
      { id: 'kept', marker: 'batch', size: 3 },
      { id: 'fresh-2', marker: 'batch', size: 4 },
    ]);
    expect(response.status).toBe(207);
    expect(response.body.map((item: { code: number }) => item.code)).toEqual([201, 406, 201]);
    expect(await ids({ equals: { target: 'marker', expr: 'batch' } })).toEqual(['fresh-1', 'fresh-2']);
    expect(await ids({ equals: { target: 'marker', expr: 'first' } })).toEqual(['kept']);
    expect(await ids({ gt: { target: 'size', expr: 0 } })).toEqual(['kept', 'fresh-1', 'fresh-2']);
  });

  it('refuses a number that does not survive the round trip (1e400) with 400', async () => {
    const response = await request(t.url)
      .post('/event')
      .set('Authorization', bearer())
      .set('Content-Type', 'application/json')
      .send('{"id":"huge","n":1e400}');
    expect(response.status).toBe(400);
    expect(response.body[0].message).toBe('body contains a number out of range');
  });
});
