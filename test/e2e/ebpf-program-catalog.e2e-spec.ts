import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const PARAMETER_TYPES = 'integer, number, time-duration, string, choice, boolean, binary';

const metric = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  'map-name': 'PKT_COUNTER',
  'open-metrics-metadata': { type: 'counter', help: 'Number of packets seen by this probe.', labels: [{ name: 'IP_PROTO', value: 'UDP' }] },
  ...extra,
});

describeRecordContract({
  path: 'catalog/ebpf-program',
  resourceName: 'eBPF program catalog',
  authorization: () => bearer(),
  valid: () => ({
    description: 'Counts the packets crossing the interface it is attached to.',
    config: {
      code: ['BPF_ARRAY(PKT_COUNTER, uint64_t, 1);', 'static __always_inline int handle_rx(struct CTXTYPE *ctx) {', '  return RX_OK;', '}'],
      metrics: [metric('packets_total')],
    },
    parameters: [
      {
        id: 'interface',
        type: 'string',
        example: 'eno1',
        description: 'Network interface to attach to.',
        list: false,
        values: ['eno1', 'eth0'],
      },
    ],
    partner: 'polito',
  }),
  invalid: {
    config: { code: [1], metrics: [{ name: 'm', 'open-metrics-metadata': { labels: [{ name: 'l' }] } }] },
    parameters: [{ id: 'interface', type: 'text' }],
  },
  invalidProblems: {
    'config.code': 'must be a string or a list of strings',
    'config.metrics.0.map-name': 'required',
    'config.metrics.0.open-metrics-metadata.type': 'required',
    'config.metrics.0.open-metrics-metadata.labels.0.value': 'required',
    'parameters.0.type': `must be one of: ${PARAMETER_TYPES}`,
  },
  change: { description: 'Counts packets, v2' },
  invalidChange: { body: { config: { code: null } }, problems: { 'config.code': 'required' } },
});

describe.each(databaseKinds())('eBPF program catalog specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const entry = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    config: { code: 'int x;\r\nint y;', metrics: [metric('packets_total')] },
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('requires config and config.code', async () => {
    const none = await api.create('catalog/ebpf-program', { id: 'no-config' });
    expect(none.status).toBe(406);
    expect(none.body[0].message).toEqual({ config: 'required' });
    const empty = await api.create('catalog/ebpf-program', { id: 'no-code', config: {} });
    expect(empty.status).toBe(406);
    expect(empty.body[0].message).toEqual({ 'config.code': 'required' });
  });

  it('stores code given as one string with CRLF exactly as sent, hyphenated metric keys and empty labels included', async () => {
    const record = entry('dns_bau', {
      config: {
        code: '#include <uapi/linux/bpf.h>\r\nint x;\r\n',
        metrics: [metric('Total DNS packets', { 'open-metrics-metadata': { type: 'counter', labels: [] } })],
      },
    });
    expect((await api.create('catalog/ebpf-program', record)).status).toBe(201);
    expect((await api.read('catalog/ebpf-program', 'dns_bau')).text).toBe(JSON.stringify([record]));
  });

  it('refuses two metrics of one name, and two labels of one name', async () => {
    const metrics = await api.create(
      'catalog/ebpf-program',
      entry('twin-metrics', { config: { code: 'x', metrics: [metric('a'), metric('a')] } }),
    );
    expect(metrics.status).toBe(406);
    expect(metrics.body[0].message).toEqual({ 'config.metrics': 'duplicate name' });
    const labels = [
      { name: 'IP_PROTO', value: 'UDP' },
      { name: 'IP_PROTO', value: 'TCP' },
    ];
    const twinLabels = await api.create(
      'catalog/ebpf-program',
      entry('twin-labels', { config: { code: 'x', metrics: [metric('a', { 'open-metrics-metadata': { type: 'counter', labels } })] } }),
    );
    expect(twinLabels.status).toBe(406);
    expect(twinLabels.body[0].message).toEqual({ 'config.metrics.0.open-metrics-metadata.labels': 'duplicate name' });
  });

  it('replaces the metrics whole on update (their items have no id), and merges parameters by id', async () => {
    await api.seed([['catalog/ebpf-program', entry('counter', { parameters: [{ id: 'interface', type: 'string' }] })]]);
    const metrics = [metric('bytes_total', { 'map-name': 'BYTE_COUNTER' })];
    const response = await api.update('catalog/ebpf-program', {
      id: 'counter',
      config: { metrics },
      parameters: [
        { id: 'interface', example: 'eth0' },
        { id: 'rate', type: 'integer' },
      ],
    });
    expect(response.status).toBe(200);
    expect(await api.stored('catalog/ebpf-program', 'counter')).toEqual(
      entry('counter', {
        config: { code: 'int x;\r\nint y;', metrics },
        parameters: [
          { id: 'interface', type: 'string', example: 'eth0' },
          { id: 'rate', type: 'integer' },
        ],
      }),
    );
  });

  it('refuses two parameters of one id', async () => {
    const response = await api.create(
      'catalog/ebpf-program',
      entry('twin-parameters', {
        parameters: [
          { id: 'interface', type: 'string' },
          { id: 'interface', type: 'string' },
        ],
      }),
    );
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ 'parameters.1.id': 'duplicate id' });
  });

  it('adds no defaults: a parameter without list stays without it', async () => {
    const record = entry('plain', { parameters: [{ id: 'interface', type: 'choice', values: 'eth0' }] });
    expect((await api.create('catalog/ebpf-program', record)).status).toBe(201);
    expect((await api.read('catalog/ebpf-program', 'plain')).text).toBe(JSON.stringify([record]));
  });

  it('documents the config, the hyphenated metric keys and the parameter types', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/catalog/ebpf-program')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/catalog/ebpf-program/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/catalog/ebpf-program', 'post');
    expect(post.required).toEqual(['config']);
    expect(doc.property(post, 'config').required).toEqual(['code']);
    expect(doc.property(post, 'config.code').oneOf).toEqual([{ type: 'string' }, { type: 'array', items: { type: 'string' } }]);
    const metricSchema = doc.items(doc.property(post, 'config.metrics'));
    expect([...metricSchema.required].sort()).toEqual(['map-name', 'name']);
    expect(doc.property(metricSchema, 'map-name').type).toBe('string');
    expect(doc.property(metricSchema, 'open-metrics-metadata').required).toEqual(['type']);
    expect(doc.property(post, 'parameters.type').enum).toEqual(PARAMETER_TYPES.split(', '));
    expect(doc.body('/catalog/ebpf-program', 'put').required ?? []).toEqual([]);
    expect(doc.property(doc.body('/catalog/ebpf-program', 'put'), 'config').required ?? []).toEqual([]);
  });
});
