import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

// The demo agent catalog holds nprobe and firewall; instances also need an execution environment.
const host: [string, Record<string, unknown>][] = [
  ['type/exec-env', { id: 'vm', name: 'Virtual Machine' }],
  ['exec-env', { id: 'apache-server', type_id: 'vm', hostname: '10.0.0.1', enabled: true, lcp: { port: 4000, https: false } }],
  ['exec-env', { id: 'db-server', type_id: 'vm', hostname: '10.0.0.2', enabled: true }],
];

describeRecordContract({
  path: 'instance/agent',
  resourceName: 'Agent instance',
  authorization: () => bearer(),
  prerequisites: () => host.map(([path, body]) => ({ path, body, authorization: () => bearer() })),
  valid: () => ({
    agent_catalog_id: 'nprobe',
    exec_env_id: 'apache-server',
    status: 'stopped',
    description: 'nprobe on the Apache server',
    operations: [
      {
        parameters: [{ id: 'network-interface', value: 'eth0' }],
        actions: [{ id: 'start', output_format: 'lines', user: 'ops' }, { id: 'start' }],
        resources: [{ id: 'flows', content: ['line 1', 'line 2'] }],
      },
    ],
    actions: [
      { id: 'start', timestamp: '2020/06/04T09:22:09', return_code: 0 },
      { id: 'start', timestamp: '2020/06/04T09:25:00' },
    ],
    parameters: [{ id: 'network-interface', timestamp: '2020/06/04T09:22:09', value: { new: 'eth0', old: 'eth1' } }],
  }),
  invalid: {
    status: 'running',
    operations: { actions: [{ output_format: 'xml' }], parameters: [{ id: 'p' }], resources: [{ id: 'r', content: 5 }] },
  },
  invalidProblems: {
    agent_catalog_id: 'required',
    exec_env_id: 'required',
    status: 'must be one of: started, stopped, unknown',
    'operations.actions.0.id': 'required',
    'operations.actions.0.output_format': 'must be one of: plain, lines, json',
    'operations.parameters.0.value': 'required',
    'operations.resources.0.content': 'must be a string or a list of strings',
  },
  change: { description: 'nprobe, capturing' },
  invalidChange: { body: { actions: [{ timestamp: '2020/06/04T10:00:00' }] }, problems: { 'actions.0.id': 'required' } },
});

describe.each(databaseKinds())('Agent instance specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const instance = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    agent_catalog_id: 'firewall',
    exec_env_id: 'apache-server',
    status: 'started',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed(host);
  });
  afterAll(async () => t?.close());

  describe('references', () => {
    it('refuses a missing catalog entry and a missing execution environment, naming each', async () => {
      const response = await api.create(
        'instance/agent',
        instance('fuzzer@nowhere', { agent_catalog_id: 'fuzzer', exec_env_id: 'nowhere' }),
      );
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({
        agent_catalog_id: 'Agent catalog with id=fuzzer not found',
        exec_env_id: 'Execution environment with id=nowhere not found',
      });
    });

    it('refuses changing the catalog entry or the execution environment (read-only), even to existing ones', async () => {
      await api.seed([['instance/agent', instance('pinned')]]);
      const catalog = await api.update('instance/agent', { id: 'pinned', agent_catalog_id: 'nprobe' });
      expect(catalog.status).toBe(406);
      expect(catalog.body[0].message).toEqual({ agent_catalog_id: 'read-only' });
      const env = await api.update('instance/agent', { id: 'pinned', exec_env_id: 'db-server' });
      expect(env.status).toBe(406);
      expect(env.body[0].message).toEqual({ exec_env_id: 'read-only' });
      expect((await api.update('instance/agent', instance('pinned'))).status).toBe(304);
    });
  });

  describe('status', () => {
    it('defaults to unknown when a client leaves it out (the fuzzing agent does)', async () => {
      const sent = { id: 'no-status', agent_catalog_id: 'nprobe', exec_env_id: 'apache-server' };
      expect((await api.create('instance/agent', sent)).status).toBe(201);
      expect(await api.stored('instance/agent', 'no-status')).toEqual({ ...sent, status: 'unknown' });
    });

    it('keeps a given status, and refuses one outside started, stopped, unknown', async () => {
      expect((await api.create('instance/agent', instance('given', { status: 'stopped' }))).status).toBe(201);
      expect((await api.stored('instance/agent', 'given')).status).toBe('stopped');
      const response = await api.create('instance/agent', instance('running', { status: 'running' }));
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ status: 'must be one of: started, stopped, unknown' });
    });

    it('is read-only: a change is refused, a repeat passes', async () => {
      await api.seed([['instance/agent', instance('steady', { status: 'stopped' })]]);
      const response = await api.update('instance/agent', { id: 'steady', status: 'started' });
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ status: 'read-only' });
      expect((await api.update('instance/agent', { id: 'steady', status: 'stopped' })).status).toBe(304);
      expect((await api.update('instance/agent', { id: 'steady', status: 'stopped', description: 'idle' })).status).toBe(200);
    });
  });

  describe('actions: ids repeat, and an update replaces the whole list', () => {
    const rules = [
      { id: 'default', action: 'accept', timestamp: '2021-03-01T10:00:00' },
      { id: 'insert', n: 1, src: '10.0.0.5', dst: '10.0.0.1', action: 'drop', timestamp: '2021-03-01T10:00:01' },
      { id: 'insert', n: 2, src: '10.0.0.6', dst: '10.0.0.1', action: 'drop', timestamp: '2021-03-01T10:00:02' },
    ];

    it('accepts repeated action ids and stores the list as sent', async () => {
      const record = instance('firewall@node-1', { actions: rules });
      expect((await api.create('instance/agent', record)).status).toBe(201);
      expect((await api.read('instance/agent', 'firewall@node-1')).text).toBe(JSON.stringify([record]));
    });

    it('replaces the list on update instead of merging it by id', async () => {
      await api.seed([['instance/agent', instance('firewall@node-2', { actions: rules })]]);
      const next = [rules[0], { id: 'insert', n: 3, src: '10.0.0.7', dst: '10.0.0.1', action: 'drop', timestamp: '2021-03-01T11:00:00' }];
      expect((await api.update('instance/agent', { id: 'firewall@node-2', actions: next })).status).toBe(200);
      expect((await api.stored('instance/agent', 'firewall@node-2')).actions).toEqual(next);
      expect((await api.update('instance/agent', { id: 'firewall@node-2', actions: next })).status).toBe(304);
    });

    it('empties the list with an empty one, which a merge by id would have left alone', async () => {
      await api.seed([['instance/agent', instance('firewall@node-3', { actions: rules })]]);
      expect((await api.update('instance/agent', { id: 'firewall@node-3', actions: [] })).status).toBe(200);
      expect((await api.stored('instance/agent', 'firewall@node-3')).actions).toEqual([]);
    });
  });

  describe('operations: one object or a list, stored as sent, replaced whole on update', () => {
    it('stores an operations object as sent (the interception agent sends one)', async () => {
      const operations = { actions: [{ id: 'start', userID: 'u-1', serviceProviderID: 'sp-1', serviceID: 's-1' }] };
      const record = instance('interception', { agent_catalog_id: 'nprobe', operations });
      expect((await api.create('instance/agent', record)).status).toBe(201);
      expect((await api.read('instance/agent', 'interception')).text).toBe(JSON.stringify([record]));
    });

    it('replaces a list of operations with an object on update, and an object with a list', async () => {
      const first = [{ actions: [{ id: 'start' }] }, { parameters: [{ id: 'network-interface', value: 'eth0' }] }];
      await api.seed([['instance/agent', instance('ops', { agent_catalog_id: 'nprobe', operations: first })]]);
      const object = { actions: [{ id: 'stop' }] };
      expect((await api.update('instance/agent', { id: 'ops', operations: object })).status).toBe(200);
      expect((await api.stored('instance/agent', 'ops')).operations).toEqual(object);
      const list = [{ parameters: [{ id: 'capture-direction', value: 1 }] }];
      expect((await api.update('instance/agent', { id: 'ops', operations: list })).status).toBe(200);
      expect((await api.stored('instance/agent', 'ops')).operations).toEqual(list);
    });

    it('replaces an operations object with another object whole, not merging its actions by id', async () => {
      await api.seed([
        [
          'instance/agent',
          instance('ops-object', { operations: { actions: [{ id: 'start', userID: 'u-1' }], parameters: [{ id: 'p', value: 1 }] } }),
        ],
      ]);
      const next = { actions: [{ id: 'stop', userID: 'u-1' }] };
      expect((await api.update('instance/agent', { id: 'ops-object', operations: next })).status).toBe(200);
      expect((await api.stored('instance/agent', 'ops-object')).operations).toEqual(next);
    });

    it('checks the shape: ids are strings, parameter values and resource contents are required, output_format is an enum', async () => {
      const response = await api.create(
        'instance/agent',
        instance('bad-ops', {
          operations: [
            {
              actions: [{ id: 7 }, { id: 'start', output_format: 'PLAIN' }],
              parameters: [
                { id: 'a', value: 1 },
                { id: 'a', value: 2 },
              ],
              resources: [{ id: 'r' }],
            },
            'start',
          ],
        }),
      );
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({
        operations: 'must be an object or a list of objects',
        'operations.1': 'must be an object',
        'operations.0.actions.0.id': 'must be a string',
        'operations.0.actions.1.output_format': 'must be one of: plain, lines, json',
        'operations.0.parameters.1.id': 'duplicate id',
        'operations.0.resources.0.content': 'required',
      });
    });

    it('accepts a parameter value of any JSON type, and resource content as lines', async () => {
      const operations = [
        {
          parameters: [
            { id: 'a', value: 1 },
            { id: 'b', value: false },
            { id: 'c', value: { x: [1] } },
          ],
          resources: [{ id: 'r', content: 'x\ny' }],
        },
      ];
      expect((await api.create('instance/agent', instance('any-values', { operations }))).status).toBe(201);
      expect((await api.stored('instance/agent', 'any-values')).operations).toEqual(operations);
    });
  });

  it('merges parameters and resources by id, and refuses repeated ids there', async () => {
    await api.seed([['instance/agent', instance('state', { parameters: [{ id: 'a', value: { new: '1', old: '0' } }] })]]);
    expect((await api.update('instance/agent', { id: 'state', parameters: [{ id: 'b', value: { new: '2', old: '1' } }] })).status).toBe(
      200,
    );
    expect((await api.stored('instance/agent', 'state')).parameters).toEqual([
      { id: 'a', value: { new: '1', old: '0' } },
      { id: 'b', value: { new: '2', old: '1' } },
    ]);
    const twins = await api.create(
      'instance/agent',
      instance('twins', {
        resources: [
          { id: 'r', path: '/a' },
          { id: 'r', path: '/b' },
        ],
      }),
    );
    expect(twins.status).toBe(406);
    expect(twins.body[0].message).toEqual({ 'resources.1.id': 'duplicate id' });
  });

  it('documents the references, the read-only status with its enum and default, operations one-or-list and replaced lists', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/instance/agent')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/instance/agent/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/instance/agent', 'post');
    expect([...post.required].sort()).toEqual(['agent_catalog_id', 'exec_env_id']);
    expect(doc.property(post, 'agent_catalog_id')).toMatchObject({ type: 'string', readOnly: true, 'x-references': 'agent-catalog' });
    expect(doc.property(post, 'exec_env_id')).toMatchObject({ type: 'string', readOnly: true, 'x-references': 'exec-env' });
    expect(doc.property(post, 'status')).toMatchObject({ enum: ['started', 'stopped', 'unknown'], default: 'unknown', readOnly: true });
    const operations = doc.resolve(post.properties.operations);
    expect(operations.oneOf).toHaveLength(2);
    expect(operations.description).toMatch(/[Rr]eplaced whole/);
    const operation = doc.items(operations);
    expect(doc.property(operation, 'actions.output_format').enum).toEqual(['plain', 'lines', 'json']);
    expect(doc.items(operation.properties.actions).required).toEqual(['id']);
    expect([...doc.items(operation.properties.parameters).required].sort()).toEqual(['id', 'value']);
    expect(doc.property(post, 'actions').description).toMatch(/[Rr]eplaced whole/);
    expect(doc.body('/instance/agent', 'put').required ?? []).toEqual([]);
  });
});
