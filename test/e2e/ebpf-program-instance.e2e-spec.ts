import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const targets: [string, Record<string, unknown>][] = [
  ['type/exec-env', { id: 'vm', name: 'Virtual Machine' }],
  ['exec-env', { id: 'apache-server', type_id: 'vm', hostname: '10.0.0.1', enabled: true, lcp: { port: 4000, https: false } }],
  ['exec-env', { id: 'db-server', type_id: 'vm', hostname: '10.0.0.2', enabled: true }],
  ['catalog/ebpf-program', { id: 'packet-counter', config: { code: ['BPF_ARRAY(PKT_COUNTER, uint64_t, 1);'] } }],
  ['catalog/ebpf-program', { id: 'packet-capture', config: { code: 'int capture;' } }],
];

describeRecordContract({
  path: 'instance/ebpf-program',
  resourceName: 'eBPF program instance',
  authorization: () => bearer(),
  prerequisites: () => targets.map(([path, body]) => ({ path, body, authorization: () => bearer() })),
  valid: () => ({
    ebpf_program_catalog_id: 'packet-counter',
    exec_env_id: 'apache-server',
    interface: 'eth0',
    description: 'Collect',
    partner: { name: 'polito' },
  }),
  invalid: { interface: 3, parameters: [{ value: 1 }] },
  invalidProblems: {
    ebpf_program_catalog_id: 'required',
    exec_env_id: 'required',
    interface: 'must be a string',
    'parameters.0.id': 'required',
  },
  change: { interface: 'eth1' },
  invalidChange: { body: { interface: 5 }, problems: { interface: 'must be a string' } },
});

describe.each(databaseKinds())('eBPF program instance specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const instance = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    ebpf_program_catalog_id: 'packet-counter',
    exec_env_id: 'apache-server',
    interface: 'eth0',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed(targets);
  });
  afterAll(async () => t?.close());

  it('refuses a missing catalog entry and a missing execution environment, naming each', async () => {
    const response = await api.create(
      'instance/ebpf-program',
      instance('dyn-id-0', { ebpf_program_catalog_id: 'no-program', exec_env_id: 'no-env' }),
    );
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({
      ebpf_program_catalog_id: 'eBPF program catalog with id=no-program not found',
      exec_env_id: 'Execution environment with id=no-env not found',
    });
  });

  it('lets the catalog entry change (not read-only), checking the new one', async () => {
    await api.seed([['instance/ebpf-program', instance('switching')]]);
    expect((await api.update('instance/ebpf-program', { id: 'switching', ebpf_program_catalog_id: 'packet-capture' })).status).toBe(200);
    const missing = await api.update('instance/ebpf-program', { id: 'switching', ebpf_program_catalog_id: 'no-program' });
    expect(missing.status).toBe(406);
    expect(missing.body[0].message).toEqual({ ebpf_program_catalog_id: 'eBPF program catalog with id=no-program not found' });
    expect((await api.stored('instance/ebpf-program', 'switching')).ebpf_program_catalog_id).toBe('packet-capture');
  });

  it('refuses moving to another execution environment (read-only), and passes a repeat', async () => {
    await api.seed([['instance/ebpf-program', instance('anchored')]]);
    const response = await api.update('instance/ebpf-program', { id: 'anchored', exec_env_id: 'db-server' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ exec_env_id: 'read-only' });
    expect((await api.update('instance/ebpf-program', { id: 'anchored', exec_env_id: 'apache-server' })).status).toBe(304);
  });

  describe('parameters are write-only: validated, never stored', () => {
    it('drops them on create', async () => {
      const parameters = [{ id: 'interface', value: 'eth0', timestamp: '2021-03-01T10:00:00Z' }];
      expect((await api.create('instance/ebpf-program', instance('with-parameters', { parameters }))).status).toBe(201);
      const response = await api.read('instance/ebpf-program', 'with-parameters');
      expect(response.text).toBe(JSON.stringify([instance('with-parameters')]));
    });

    it('drops them on update: an update of only parameters changes nothing', async () => {
      await api.seed([['instance/ebpf-program', instance('updated-parameters')]]);
      expect(
        (await api.update('instance/ebpf-program', { id: 'updated-parameters', parameters: [{ id: 'interface', value: 'eth1' }] })).status,
      ).toBe(304);
      expect(
        (
          await api.update('instance/ebpf-program', {
            id: 'updated-parameters',
            parameters: [{ id: 'interface', value: 'eth1' }],
            interface: 'eth1',
          })
        ).status,
      ).toBe(200);
      expect(await api.stored('instance/ebpf-program', 'updated-parameters')).toEqual(
        instance('updated-parameters', { interface: 'eth1' }),
      );
    });

    it('still validates them', async () => {
      const response = await api.create(
        'instance/ebpf-program',
        instance('bad-parameters', { parameters: [{ id: 'interface', value: 1 }, { id: 'interface' }, { id: 5, timestamp: 'now' }] }),
      );
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({
        'parameters.1.id': 'duplicate id',
        'parameters.2.id': 'must be a string',
        'parameters.2.timestamp': 'must be an ISO-8601 date-time',
      });
      const notList = await api.create('instance/ebpf-program', instance('bad-parameters', { parameters: { id: 'interface' } }));
      expect(notList.status).toBe(406);
      expect(notList.body[0].message).toEqual({ parameters: 'must be a list' });
    });
  });

  it('stores only what the controller reader knows when that is what is sent', async () => {
    const record = {
      ebpf_program_catalog_id: 'packet-capture',
      id: 'dyn-id-1',
      description: 'Collect',
      exec_env_id: 'db-server',
      interface: 'ens3',
    };
    expect((await api.create('instance/ebpf-program', record)).status).toBe(201);
    expect((await api.read('instance/ebpf-program', 'dyn-id-1')).text).toBe(JSON.stringify([record]));
  });

  it('documents the references, the read-only exec_env_id and the write-only parameters', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/instance/ebpf-program')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/instance/ebpf-program/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/instance/ebpf-program', 'post');
    expect([...post.required].sort()).toEqual(['ebpf_program_catalog_id', 'exec_env_id']);
    const catalog = doc.property(post, 'ebpf_program_catalog_id');
    expect(catalog).toMatchObject({ type: 'string', 'x-references': 'ebpf-program-catalog' });
    expect(catalog.readOnly).toBeUndefined();
    expect(doc.property(post, 'exec_env_id')).toMatchObject({ type: 'string', readOnly: true, 'x-references': 'exec-env' });
    expect(doc.property(post, 'interface').type).toBe('string');
    expect(doc.property(post, 'parameters').writeOnly).toBe(true);
    expect(doc.body('/instance/ebpf-program', 'put').required ?? []).toEqual([]);
  });
});
