import request from 'supertest';
import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

describeRecordContract({
  path: 'type/exec-env',
  resourceName: 'Execution environment type',
  authorization: () => bearer(),
  valid: () => ({ name: 'Virtual Machine', description: 'The service is deployed in a virtual machine.', partner: { name: 'locust' } }),
  invalid: { description: 5 },
  invalidProblems: { name: 'required', description: 'must be a string' },
  change: { name: 'VM' },
  invalidChange: { body: { name: null }, problems: { name: 'required' } },
});

describe.each(databaseKinds())('Execution environment type specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('is served at /type/exec-env only: the original code route /exec-env-type is no alias', async () => {
    expect((await api.create('type/exec-env', { id: 'vm', name: 'Virtual Machine' })).status).toBe(201);
    expect((await api.read('type/exec-env', 'vm')).body).toEqual([{ id: 'vm', name: 'Virtual Machine' }]);
    for (const path of ['/exec-env-type', '/exec-env-type/vm']) {
      const response = await request(t.url).get(path).set('Authorization', bearer());
      expect(response.status).toBe(404);
    }
  });

  it('takes JWT, not Basic', async () => {
    expect((await request(t.url).get('/type/exec-env').set('Authorization', basic())).status).toBe(401);
    expect((await request(t.url).get('/type/exec-env')).status).toBe(401);
  });

  it('lets name change (it is not read-only, unlike in the original network link type)', async () => {
    await api.seed([['type/exec-env', { id: 'renamed', name: 'Old' }]]);
    expect((await api.update('type/exec-env', { id: 'renamed', name: 'New' })).status).toBe(200);
    expect(await api.stored('type/exec-env', 'renamed')).toEqual({ id: 'renamed', name: 'New' });
  });

  it('documents its routes and schema in OpenAPI: name required on POST, nothing required on PUT', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/type/exec-env')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/type/exec-env/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.document.paths['/exec-env-type']).toBeUndefined();
    expect(doc.document.paths['/exec-env-type/{id}']).toBeUndefined();
    expect(doc.document.paths['/type/exec-env'].post.security).toEqual([{ bearer: [] }]);
    const post = doc.body('/type/exec-env', 'post');
    expect(post.required).toEqual(['name']);
    expect(post.additionalProperties).toBe(true);
    expect(doc.property(post, 'name')).toMatchObject({ type: 'string', description: 'human name of the kind', example: 'Virtual Machine' });
    expect(doc.property(post, 'description').type).toBe('string');
    expect(doc.body('/type/exec-env', 'put').required ?? []).toEqual([]);
  });
});
