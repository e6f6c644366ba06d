import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const prerequisites = () => [
  { path: 'type/exec-env', body: { id: 'contract-vm', name: 'Virtual Machine' }, authorization: () => bearer() },
  {
    path: 'exec-env',
    body: { id: 'contract-host', type_id: 'contract-vm', hostname: '10.0.0.1', enabled: true },
    authorization: () => bearer(),
  },
  { path: 'network-link', body: { id: 'contract-link', type_id: 'p2p' }, authorization: () => bearer() },
];

describeRecordContract({
  path: 'connection',
  resourceName: 'Connection',
  authorization: () => bearer(),
  prerequisites,
  valid: () => ({
    exec_env_id: 'contract-host',
    network_link_id: 'contract-link',
    description: 'Connection for the HTTP and DB Servers.',
    partner: { name: 'locust' },
  }),
  invalid: { exec_env_id: 5, description: [] },
  invalidProblems: { exec_env_id: 'must be a string', network_link_id: 'required', description: 'must be a string' },
  change: { description: 'Moved to the backup switch' },
  invalidChange: { body: { description: 7 }, problems: { description: 'must be a string' } },
});

describe.each(databaseKinds())('Connection specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const connection = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    exec_env_id: 'apache-server',
    network_link_id: 'eth0',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed([
      ['type/exec-env', { id: 'vm', name: 'Virtual Machine' }],
      ['exec-env', { id: 'apache-server', type_id: 'vm', hostname: '10.0.0.1', enabled: true }],
      ['exec-env', { id: 'db-server', type_id: 'vm', hostname: '10.0.0.2', enabled: true }],
      ['network-link', { id: 'eth0', type_id: 'p2p' }],
      ['network-link', { id: 'eth1', type_id: 'slice' }],
    ]);
  });
  afterAll(async () => t?.close());

  it('refuses a missing execution environment and a missing network link, naming each', async () => {
    const one = await api.create('connection', connection('c-missing-env', { exec_env_id: 'no-such-env' }));
    expect(one.status).toBe(406);
    expect(one.body[0].message).toEqual({ exec_env_id: 'Execution environment with id=no-such-env not found' });
    const both = await api.create('connection', connection('c-missing-both', { exec_env_id: 'no-env', network_link_id: 'no-link' }));
    expect(both.status).toBe(406);
    expect(both.body[0].message).toEqual({
      exec_env_id: 'Execution environment with id=no-env not found',
      network_link_id: 'Network link with id=no-link not found',
    });
    expect((await api.read('connection')).status).toBe(404);
  });

  it('refuses changing either end (read-only), and passes an update that repeats them', async () => {
    await api.seed([['connection', connection('fixed')]]);
    const env = await api.update('connection', { id: 'fixed', exec_env_id: 'db-server' });
    expect(env.status).toBe(406);
    expect(env.body[0].message).toEqual({ exec_env_id: 'read-only' });
    const link = await api.update('connection', { id: 'fixed', network_link_id: 'eth1' });
    expect(link.status).toBe(406);
    expect(link.body[0].message).toEqual({ network_link_id: 'read-only' });
    const removed = await api.update('connection', { id: 'fixed', network_link_id: null });
    expect(removed.status).toBe(406);
    // Removing a required read-only field breaks two rules; the library names one of them.
    expect(Object.keys(removed.body[0].message)).toEqual(['network_link_id']);
    expect(['read-only', 'required']).toContain(removed.body[0].message.network_link_id);
    expect((await api.update('connection', connection('fixed'))).status).toBe(304);
    expect((await api.update('connection', connection('fixed', { description: 'same ends' }))).status).toBe(200);
    expect(await api.stored('connection', 'fixed')).toEqual(connection('fixed', { description: 'same ends' }));
  });

  it('lets its ends be deleted (nothing cascades) and still takes updates that repeat them', async () => {
    await api.seed([
      ['exec-env', { id: 'temp-env', type_id: 'vm', hostname: 'temp', enabled: false }],
      ['connection', connection('dangling', { exec_env_id: 'temp-env' })],
    ]);
    expect((await api.remove('exec-env', 'temp-env')).status).toBe(205);
    expect((await api.stored('connection', 'dangling')).exec_env_id).toBe('temp-env');
    expect((await api.update('connection', connection('dangling', { exec_env_id: 'temp-env', description: 'orphan' }))).status).toBe(200);
  });

  it('allows two connections of the same pair', async () => {
    const response = await api.create('connection', [connection('pair-1'), connection('pair-2')]);
    expect(response.status).toBe(201);
  });

  it('stores only the keys sent: the controller reader knows id, description, exec_env_id, network_link_id', async () => {
    const record = {
      description: 'Connection for the HTTP and DB Servers.',
      exec_env_id: 'apache-server',
      network_link_id: 'eth0',
      id: 'user-vm>hosted@digit-cyber',
    };
    expect((await api.create('connection', record)).status).toBe(201);
    expect((await api.read('connection', record.id)).text).toBe(JSON.stringify([record]));
  });

  it('documents both ends as read-only references, and a partial PUT', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/connection')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/connection/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/connection', 'post');
    expect([...post.required].sort()).toEqual(['exec_env_id', 'network_link_id']);
    const env = doc.property(post, 'exec_env_id');
    expect(env).toMatchObject({ type: 'string', readOnly: true });
    expect(env['x-references']).toBe('exec-env');
    expect(env.description).toContain('Execution environment (`/exec-env`)');
    const link = doc.property(post, 'network_link_id');
    expect(link).toMatchObject({ type: 'string', readOnly: true });
    expect(link['x-references']).toBe('network-link');
    expect(link.description).toContain('Network link (`/network-link`)');
    expect(doc.body('/connection', 'put').required ?? []).toEqual([]);
  });
});
