import request from 'supertest';
import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

// The demo data holds the network link types p2p and slice, which these records point at.
describeRecordContract({
  path: 'network-link',
  resourceName: 'Network link',
  authorization: () => bearer(),
  valid: () => ({ type_id: 'p2p', description: 'To connect HTTP and DB Servers.', partner: { name: 'locust', tags: ['a'] } }),
  invalid: { type_id: 5, description: 6 },
  invalidProblems: { type_id: 'must be a string', description: 'must be a string' },
  change: { type_id: 'slice' },
  invalidChange: { body: { type_id: null }, problems: { type_id: 'required' } },
});

describe.each(databaseKinds())('Network link specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('refuses a network link type that does not exist (the astrid types are not demo data)', async () => {
    const response = await api.create('network-link', { id: 'cnit-network-slice', type_id: 'network-slice' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ type_id: 'Network link type with id=network-slice not found' });
    expect((await api.read('network-link', 'cnit-network-slice')).status).toBe(404);
  });

  it('accepts the type once it exists (created with Basic, as that family requires)', async () => {
    const type = await request(t.url).post('/type/network-link').set('Authorization', basic()).send({ id: 'hosted', name: 'Hosted' });
    expect(type.status).toBe(201);
    expect((await api.create('network-link', { id: 'hosted@digit-cyber', type_id: 'hosted' })).status).toBe(201);
    expect(await api.stored('network-link', 'hosted@digit-cyber')).toEqual({ id: 'hosted@digit-cyber', type_id: 'hosted' });
  });

  it('checks a changed type_id on update, and passes a repeated one whose type has been deleted', async () => {
    await api.seed([['network-link', { id: 'eth1', type_id: 'p2p' }]]);
    const missing = await api.update('network-link', { id: 'eth1', type_id: 'pnt2pnt' });
    expect(missing.status).toBe(406);
    expect(missing.body[0].message).toEqual({ type_id: 'Network link type with id=pnt2pnt not found' });
    expect((await request(t.url).post('/type/network-link').set('Authorization', basic()).send({ id: 'wifi', name: 'Wi-Fi' })).status).toBe(
      201,
    );
    expect((await api.update('network-link', { id: 'eth1', type_id: 'wifi' })).status).toBe(200);
    expect((await request(t.url).delete('/type/network-link/wifi').set('Authorization', basic())).status).toBe(205);
    expect((await api.update('network-link', { id: 'eth1', type_id: 'wifi', description: 'radio' })).status).toBe(200);
    expect(await api.stored('network-link', 'eth1')).toEqual({ id: 'eth1', type_id: 'wifi', description: 'radio' });
  });

  it("keeps the locust client's exec_env_id as additional data, checking nothing", async () => {
    const record = { id: 'locust-link', type_id: 'slice', exec_env_id: 'no-such-exec-env', partner: 'locust' };
    expect((await api.create('network-link', record)).status).toBe(201);
    expect((await api.read('network-link', 'locust-link')).text).toBe(JSON.stringify([record]));
  });

  it('requires type_id', async () => {
    const response = await api.create('network-link', { id: 'untyped' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ type_id: 'required' });
  });

  it('takes JWT, not Basic', async () => {
    expect((await request(t.url).get('/network-link').set('Authorization', basic())).status).toBe(401);
  });

  it('documents its routes, the reference to network link types and a partial PUT', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/network-link')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/network-link/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/network-link', 'post');
    expect(post.required).toEqual(['type_id']);
    const typeId = doc.property(post, 'type_id');
    expect(typeId.type).toBe('string');
    expect(typeId['x-references']).toBe('network-link-type');
    expect(typeId.description).toContain('Network link type (`/type/network-link`)');
    expect(typeId.readOnly).toBeUndefined();
    expect(doc.body('/network-link', 'put').required ?? []).toEqual([]);
  });
});
