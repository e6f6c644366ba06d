import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/** The records a data record points at: an agent instance and an eBPF program instance on one host. */
const origins: [string, Record<string, unknown>][] = [
  ['type/exec-env', { id: 'vm', name: 'Virtual Machine' }],
  ['exec-env', { id: 'apache-server', type_id: 'vm', hostname: '10.0.0.1', enabled: true }],
  ['instance/agent', { id: 'nprobe@apache-server', agent_catalog_id: 'nprobe', exec_env_id: 'apache-server', status: 'started' }],
  ['instance/agent', { id: 'firewall@apache-server', agent_catalog_id: 'firewall', exec_env_id: 'apache-server', status: 'started' }],
  ['catalog/ebpf-program', { id: 'packet-counter', config: { code: 'BPF_ARRAY(PKT_COUNTER, uint64_t, 1);' } }],
  [
    'instance/ebpf-program',
    { id: 'packet-counter@apache-server', ebpf_program_catalog_id: 'packet-counter', exec_env_id: 'apache-server', interface: 'eth0' },
  ],
];

describeRecordContract({
  path: 'data',
  resourceName: 'Data',
  authorization: () => bearer(),
  prerequisites: () => origins.map(([path, body]) => ({ path, body, authorization: () => bearer() })),
  valid: () => ({
    agent_instance_id: 'nprobe@apache-server',
    ebpf_program_instance_id: 'packet-counter@apache-server',
    timestamp_event: '2020-06-04T09:22:09',
    timestamp_agent: '2020-06-04T09:22:19.250+02:00',
    flow: { src: '10.0.0.5', dst: '10.0.0.1', bytes: 1500 },
  }),
  invalid: { agent_instance_id: 5, timestamp_event: '2020/06/04 09:22:09' },
  invalidProblems: { agent_instance_id: 'must be a string', timestamp_event: 'must be an ISO-8601 date-time' },
  change: { source: '10.0.0.9' },
});

describe.each(databaseKinds())('Data specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const data = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    agent_instance_id: 'nprobe@apache-server',
    timestamp_event: '2020-06-04T09:22:09',
    timestamp_agent: '2020-06-04T09:22:19',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed(origins);
  });
  afterAll(async () => t?.close());

  it('refuses a missing agent instance and a missing eBPF program instance, naming each', async () => {
    const response = await api.create(
      'data',
      data('d-missing', { agent_instance_id: 'nprobe@nowhere', ebpf_program_instance_id: 'counter@nowhere' }),
    );
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({
      agent_instance_id: 'Agent instance with id=nprobe@nowhere not found',
      ebpf_program_instance_id: 'eBPF program instance with id=counter@nowhere not found',
    });
    expect((await api.read('data', 'd-missing')).status).toBe(404);
  });

  it('takes a record with neither origin nor timestamps (what Logstash writes is all payload)', async () => {
    const record = { id: 'payload-only', topic: 'data-nprobe', values: [1, 2, 3] };
    expect((await api.create('data', record)).status).toBe(201);
    expect((await api.read('data', 'payload-only')).text).toBe(JSON.stringify([record]));
  });

  it.each([
    '2020-06-04T09:22:09',
    '2020-06-04T09:22:09Z',
    '2020-06-04T09:22:09.123456Z',
    '2020-06-04T09:22:09+02:00',
    '2020-06-04T09:22:09-0530',
    '2020-06-04T09:22',
  ])('stores the date-time %s exactly as sent', async (timestamp) => {
    const id = `at-${timestamp}`;
    const record = data(id, { timestamp_event: timestamp, timestamp_agent: timestamp });
    expect((await api.create('data', record)).status).toBe(201);
    expect((await api.read('data', id)).text).toBe(JSON.stringify([record]));
  });

  it.each(['2020/06/04 09:22:09', '2020-06-04', '2020-13-01T00:00:00', '2020-02-30T10:00:00', 'yesterday', '', 1591262529])(
    'refuses %j as a timestamp, with the path',
    async (timestamp) => {
      const response = await api.create('data', data('bad-time', { timestamp_agent: timestamp }));
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ timestamp_agent: 'must be an ISO-8601 date-time' });
    },
  );

  it('refuses changing where and when the data came from (read-only), and passes repeating them', async () => {
    await api.seed([['data', data('fixed', { ebpf_program_instance_id: 'packet-counter@apache-server' })]]);
    for (const [field, value] of [
      ['timestamp_event', '2021-01-01T00:00:00'],
      ['timestamp_agent', '2020-06-04T09:22:19Z'],
      ['agent_instance_id', 'firewall@apache-server'],
      ['ebpf_program_instance_id', null],
    ] as const) {
      const response = await api.update('data', { id: 'fixed', [field]: value });
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ [field]: 'read-only' });
    }
    expect((await api.update('data', data('fixed', { ebpf_program_instance_id: 'packet-counter@apache-server' }))).status).toBe(304);
  });

  it('refuses setting a read-only field an update did not have before', async () => {
    await api.seed([['data', { id: 'late', value: 1 }]]);
    const response = await api.update('data', { id: 'late', timestamp_event: '2020-06-04T09:22:09' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ timestamp_event: 'read-only' });
  });

  it('adds payload by update (the docs PUT with source)', async () => {
    await api.seed([['data', data('docs-put')]]);
    expect((await api.update('data', { id: 'docs-put', source: '10.0.0.9' })).status).toBe(200);
    expect(await api.stored('data', 'docs-put')).toEqual({ ...data('docs-put'), source: '10.0.0.9' });
  });

  it('documents the read-only references and the date-time format', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/data')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/data/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/data', 'post');
    expect(post.required ?? []).toEqual([]);
    expect(doc.property(post, 'agent_instance_id')).toMatchObject({ type: 'string', readOnly: true, 'x-references': 'agent-instance' });
    expect(doc.property(post, 'agent_instance_id').description).toContain('Agent instance');
    expect(doc.property(post, 'ebpf_program_instance_id')).toMatchObject({
      type: 'string',
      readOnly: true,
      'x-references': 'ebpf-program-instance',
    });
    expect(doc.property(post, 'timestamp_event')).toMatchObject({ type: 'string', format: 'date-time', readOnly: true });
    expect(doc.property(post, 'timestamp_agent')).toMatchObject({ type: 'string', format: 'date-time', readOnly: true });
  });
});
