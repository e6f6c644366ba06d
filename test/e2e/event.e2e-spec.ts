import request from 'supertest';
import { describeRecordContract } from '../contract/record-contract';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

describeRecordContract({
  path: 'event',
  resourceName: 'Event',
  authorization: () => bearer(),
  valid: () => ({ source: '10.0.0.1', timestamp: new Date().toISOString(), payload: { bytes: 512, flags: ['syn', 'ack'] } }),
  invalid: { id: '_hidden', source: '10.0.0.2' },
  invalidProblems: { id: 'must not start with "_"' },
  change: { source: '192.168.1.7' },
});

describe.each(databaseKinds())('Event specifics on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  /** POSTs `body` as it is written, spellings and spacing included. */
  const postText = (body: string) =>
    request(t.url).post('/event').set('Authorization', bearer()).set('Content-Type', 'application/json').send(body);

  it('adds a field such as source to an event by update (the spec example)', async () => {
    await request(t.url).post('/event').set('Authorization', bearer()).send({ id: 'ev-1' }).expect(201);
    const response = await request(t.url).put('/event').set('Authorization', bearer()).send({ id: 'ev-1', source: '10.1.1.1' });
    expect(response.status).toBe(200);
    expect(response.body[0].message).toBe('Event with id=ev-1 correctly updated');
    const stored = await request(t.url).get('/event/ev-1').set('Authorization', bearer());
    expect(stored.body).toEqual([{ id: 'ev-1', source: '10.1.1.1' }]);
  });

  it('starts with no events (the demo data has none)', async () => {
    const fresh = await createTestApp(kind);
    try {
      const response = await request(fresh.url).get('/event').set('Authorization', bearer());
      expect(response.status).toBe(404);
    } finally {
      await fresh.close();
    }
  });

  it('stores a record as sent, spellings and all, and one sent with whitespace or a repeated key as parsed', async () => {
    const body =
      '[{"id":"sent-1","n":1.0,"e":1E3,"big":12345678901234567890,"s":"\\u0041\\/","k":{"2":0,"1":0}},' +
      '{"id":"sent-2", "n":1.0},{"id":"sent-3","n":1,"n":2.50}]';
    const created = await postText(body);
    expect(created.status).toBe(201);
    const read = async (id: string) => (await request(t.url).get(`/event/${id}`).set('Authorization', bearer())).text;
    expect(await read('sent-1')).toBe('[{"id":"sent-1","n":1.0,"e":1E3,"big":12345678901234567890,"s":"\\u0041\\/","k":{"2":0,"1":0}}]');
    expect(await read('sent-2')).toBe('[{"id":"sent-2","n":1}]');
    expect(await read('sent-3')).toBe('[{"id":"sent-3","n":2.5}]');
    // What queries see is the parsed record: the same whichever text it is stored as.
    const found = await request(t.url)
      .get('/event')
      .set('Authorization', bearer())
      .send({ where: { and: [{ equals: { target: 'e', expr: 1000 } }, { equals: { target: 's', expr: 'A/' } }] } });
    expect(found.body.map((record: { id: string }) => record.id)).toEqual(['sent-1']);
  });

  // On PostgreSQL a batch's texts travel joined by U+001E: its escape inside a value must neither split a record nor be lost.
  it('keeps the escape of a record separator as sent, in a batch and through an update', async () => {
    const records = ['{"id":"rs-1","s":"a\\u001eb"}', '{"id":"rs-2","s":"\\u001e","t":["\\u001e\\u001e"]}', '{"id":"rs-3"}'];
    const created = await postText(`[${records.join(',')}]`);
    expect(created.status).toBe(201);
    const read = async (id: string) => (await request(t.url).get(`/event/${id}`).set('Authorization', bearer())).text;
    for (const [k, record] of records.entries()) expect(await read(`rs-${k + 1}`)).toBe(`[${record}]`);
    const updated = await request(t.url)
      .put('/event')
      .set('Authorization', bearer())
      .send([
        { id: 'rs-1', u: 'c\u001ed' },
        { id: 'rs-3', u: '\u001e' },
      ]);
    expect(updated.status).toBe(200);
    expect(JSON.parse(await read('rs-1'))).toEqual([{ id: 'rs-1', s: 'a\u001eb', u: 'c\u001ed' }]);
    expect(JSON.parse(await read('rs-3'))).toEqual([{ id: 'rs-3', u: '\u001e' }]);
    const found = await request(t.url)
      .get('/event')
      .set('Authorization', bearer())
      .send({ where: { equals: { target: 's', expr: '\u001e' } } });
    expect(found.body.map((record: { id: string }) => record.id)).toEqual(['rs-2']);
  });

  it('stores as sent the records of a batch written a chunk at a time, past the first chunk too', async () => {
    const records = Array.from({ length: 1001 }, (_, k) => `{"id":"chunked-${k}","n":${k}.0}`);
    const created = await postText(`[${records.join(',')}]`);
    expect(created.status).toBe(201);
    for (const k of [0, 1000]) {
      const read = await request(t.url).get(`/event/chunked-${k}`).set('Authorization', bearer());
      expect(read.text).toBe(`[${records[k]}]`);
    }
  });
});
