import request from 'supertest';
import { describeRecordContract } from '../contract/record-contract';
import { createTestApp, TestApp } from '../support/test-app';
import { basic } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

describeRecordContract({
  path: 'type/network-link',
  resourceName: 'Network link type',
  authorization: () => basic(),
  valid: () => ({ name: 'Mesh', description: 'Every node links to many', medium: { kind: 'radio', bands: [2.4, 5] } }),
  invalid: { description: 5 },
  invalidProblems: { name: 'required', description: 'must be a string' },
  change: { name: 'Renamed' },
  invalidChange: { body: { name: null }, problems: { name: 'required' } },
});

describe.each(databaseKinds())('Network link type specifics on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('starts with the two demo records, exactly as in the demo data', async () => {
    const response = await request(t.url).get('/type/network-link').set('Authorization', basic());
    expect(response.status).toBe(200);
    expect(response.body.map((record: { id: string; name: string }) => [record.id, record.name])).toEqual([
      ['p2p', 'Point to Point'],
      ['slice', 'Slice'],
    ]);
    for (const record of response.body) expect(typeof record.description).toBe('string');
  });

  it('refuses a record without name (the spec example)', async () => {
    const response = await request(t.url).post('/type/network-link').set('Authorization', basic()).send({ id: 'star' });
    expect(response.status).toBe(406);
    expect(response.body).toEqual([{ status: 'Not Acceptable', code: 406, error: true, message: { name: 'required' } }]);
  });

  it('renames a type by update (the spec example)', async () => {
    const response = await request(t.url)
      .put('/type/network-link/slice')
      .set('Authorization', basic())
      .send({ id: 'slice', name: 'Network slice' });
    expect(response.status).toBe(200);
    expect(response.body[0].message).toBe('Network link type with id=slice correctly updated');
  });
});
