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
});
