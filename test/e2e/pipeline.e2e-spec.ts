import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const members: [string, Record<string, unknown>][] = [
  ['type/exec-env', { id: 'vm', name: 'Virtual Machine' }],
  ['exec-env', { id: 'apache-server', type_id: 'vm', hostname: '10.0.0.1', enabled: true }],
  ['instance/agent', { id: 'nprobe@apache-server', agent_catalog_id: 'nprobe', exec_env_id: 'apache-server', status: 'started' }],
  ['instance/agent', { id: 'firewall@apache-server', agent_catalog_id: 'firewall', exec_env_id: 'apache-server', status: 'started' }],
  ['catalog/algorithm', { id: 'ddos-predictor' }],
  ['instance/algorithm', { id: 'ddos-predictor-1', algorithm_catalog_id: 'ddos-predictor' }],
];

describeRecordContract({
  path: 'pipeline',
  resourceName: 'Pipeline',
  authorization: () => bearer(),
  prerequisites: () => members.map(([path, body]) => ({ path, body, authorization: () => bearer() })),
  valid: () => ({
    created_at: 1617278285,
    updated_at: 1617278340,
    name: 'test pipeline guard-vdpi udt',
    user: 'Minds & Sparks',
    status: 'started',
    agent_instance_ids: ['nprobe@apache-server', 'firewall@apache-server'],
    algorithm_instance_ids: ['ddos-predictor-1'],
  }),
  invalid: { name: 5, agent_instance_ids: [1], algorithm_instance_ids: { id: 'x' } },
  invalidProblems: {
    status: 'required',
    name: 'must be a string',
    agent_instance_ids: 'must be a string or a list of strings',
    algorithm_instance_ids: 'must be a string or a list of strings',
  },
  change: { status: 'stopped' },
  invalidChange: { body: { status: null }, problems: { status: 'required' } },
});

describe.each(databaseKinds())('Pipeline specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const pipeline = (id: string, extra: Record<string, unknown> = {}) => ({ id, status: 'started', ...extra });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed(members);
  });
  afterAll(async () => t?.close());

  it('requires status (406, where the original answered 422)', async () => {
    const response = await api.create('pipeline', { id: 'no-status', name: 'x' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ status: 'required' });
  });

  it('refuses a list naming a missing agent instance or algorithm instance', async () => {
    const agents = await api.create(
      'pipeline',
      pipeline('bad-agents', { agent_instance_ids: ['nprobe@apache-server', 'packetbeat@apache-server'] }),
    );
    expect(agents.status).toBe(406);
    expect(agents.body[0].message).toEqual({ agent_instance_ids: 'Agent instance with id=packetbeat@apache-server not found' });
    const algorithms = await api.create('pipeline', pipeline('bad-algorithms', { algorithm_instance_ids: ['ddos-predictor-2'] }));
    expect(algorithms.status).toBe(406);
    expect(algorithms.body[0].message).toEqual({ algorithm_instance_ids: 'Algorithm instance with id=ddos-predictor-2 not found' });
  });

  it('checks a string of ids line by line and stores the string as sent', async () => {
    const record = pipeline('lines', {
      agent_instance_ids: 'nprobe@apache-server\r\nfirewall@apache-server\n',
      algorithm_instance_ids: 'ddos-predictor-1',
    });
    expect((await api.create('pipeline', record)).status).toBe(201);
    expect((await api.read('pipeline', 'lines')).text).toBe(JSON.stringify([record]));
    const missing = await api.create(
      'pipeline',
      pipeline('bad-lines', { agent_instance_ids: 'nprobe@apache-server\nghost@apache-server' }),
    );
    expect(missing.status).toBe(406);
    expect(missing.body[0].message).toEqual({ agent_instance_ids: 'Agent instance with id=ghost@apache-server not found' });
  });

  it('replaces the id lists whole on update, checking the new ids', async () => {
    await api.seed([['pipeline', pipeline('members', { agent_instance_ids: ['nprobe@apache-server', 'firewall@apache-server'] })]]);
    expect((await api.update('pipeline', { id: 'members', agent_instance_ids: ['firewall@apache-server'] })).status).toBe(200);
    expect((await api.stored('pipeline', 'members')).agent_instance_ids).toEqual(['firewall@apache-server']);
    const missing = await api.update('pipeline', { id: 'members', agent_instance_ids: ['firewall@apache-server', 'ghost'] });
    expect(missing.status).toBe(406);
    expect(missing.body[0].message).toEqual({ agent_instance_ids: 'Agent instance with id=ghost not found' });
  });

  it('passes an update that keeps an id whose instance has since been deleted', async () => {
    await api.seed([
      ['instance/algorithm', { id: 'ddos-predictor-9', algorithm_catalog_id: 'ddos-predictor' }],
      ['pipeline', pipeline('stale', { algorithm_instance_ids: ['ddos-predictor-9'] })],
    ]);
    expect((await api.remove('instance/algorithm', 'ddos-predictor-9')).status).toBe(205);
    expect((await api.update('pipeline', { id: 'stale', algorithm_instance_ids: ['ddos-predictor-9', 'ddos-predictor-1'] })).status).toBe(
      200,
    );
  });

  it('accepts any status text (no enum)', async () => {
    expect((await api.create('pipeline', pipeline('paused', { status: 'paused by operator' }))).status).toBe(201);
  });

  it('documents status as required, and both id lists as references, each id naming a record', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/pipeline')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/pipeline/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/pipeline', 'post');
    expect(post.required).toEqual(['status']);
    const agents = doc.property(post, 'agent_instance_ids');
    expect(agents['x-references']).toBe('agent-instance');
    expect(agents.description).toContain('Agent instance (`/instance/agent`)');
    expect(doc.property(post, 'algorithm_instance_ids')['x-references']).toBe('algorithm-instance');
    expect(doc.body('/pipeline', 'put').required ?? []).toEqual([]);
  });
});
