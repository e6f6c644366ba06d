import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/**
 * The library's relational rules where they meet the others (docs/relations.md): an item's
 * problems are all reported at once, references included, and a read-only field an update
 * removes is reported as read-only.
 */
describe.each(databaseKinds())('relations together with validation on %s', (kind) => {
  let t: TestApp;
  const send = (method: 'post' | 'put', path: string, body: object) =>
    request(t.url)[method](path).set('Authorization', bearer()).send(body);

  beforeAll(async () => {
    t = await createTestApp(kind);
    expect((await send('post', '/type/exec-env', { id: 'vm', name: 'Virtual Machine' })).status).toBe(201);
    expect((await send('post', '/exec-env', { id: 'host-1', type_id: 'vm', hostname: 'h1', enabled: true })).status).toBe(201);
    expect((await send('post', '/network-link', { id: 'eth0', type_id: 'p2p' })).status).toBe(201);
    expect((await send('post', '/connection', { id: 'c1', exec_env_id: 'host-1', network_link_id: 'eth0' })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it('a create with a missing reference and an invalid field reports both', async () => {
    const response = await send('post', '/exec-env', { id: 'bad', type_id: 'no-such-type', hostname: 5, enabled: 'perhaps' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({
      type_id: 'Execution environment type with id=no-such-type not found',
      hostname: 'must be a string',
      enabled: 'must be a boolean',
    });
  });

  it('in a batch, each refused item names its own missing records, and the valid ones are written', async () => {
    const response = await send('post', '/connection', [
      { id: 'c2', exec_env_id: 'host-1', network_link_id: 'eth0' },
      { id: 'c3', exec_env_id: 'gone', network_link_id: 'eth0', description: 7 },
      { id: 'c4', exec_env_id: 'host-1', network_link_id: 'nowhere' },
    ]);
    expect(response.status).toBe(207);
    expect(response.body.map((envelope: { code: number }) => envelope.code)).toEqual([201, 406, 406]);
    expect(response.body[1].message).toEqual({
      exec_env_id: 'Execution environment with id=gone not found',
      description: 'must be a string',
    });
    expect(response.body[2].message).toEqual({ network_link_id: 'Network link with id=nowhere not found' });
  });

  it('an update that changes a reference to a missing record and breaks a field reports both', async () => {
    const response = await send('put', '/exec-env/host-1', { type_id: 'container', hostname: ['not', 'a', 'string'] });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({
      type_id: 'Execution environment type with id=container not found',
      hostname: 'must be a string',
    });
  });

  it('an update that removes a required read-only field is refused as read-only', async () => {
    const response = await send('put', '/connection/c1', { network_link_id: null });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ network_link_id: 'read-only' });
  });
});
