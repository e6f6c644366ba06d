import request from 'supertest';
import { jwtRequests } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/**
 * The example of each family in other-families.md (copied here: the spec is not read at test
 * time), in the order it gives, on top of the demo data. Each is sent as written and must read
 * back as the service stores it.
 */
const EXAMPLES: { section: string; path: string; sent: Record<string, unknown>; stored?: Record<string, unknown> }[] = [
  {
    section: '§3',
    path: 'type/exec-env',
    sent: { id: 'vm', name: 'Virtual Machine', description: 'The service is deployed in a virtual machine.' },
  },
  {
    section: '§4',
    path: 'exec-env',
    sent: {
      id: 'apache-server',
      description: 'Apache HTTP Web Server',
      type_id: 'vm',
      hostname: '10.0.0.1',
      enabled: true,
      lcp: { port: 4000, https: false },
    },
  },
  { section: '§5', path: 'network-link', sent: { id: 'eth0', type_id: 'p2p', description: 'To connect HTTP and DB Servers.' } },
  {
    section: '§6',
    path: 'connection',
    sent: {
      id: 'http-db-connection',
      exec_env_id: 'apache-server',
      network_link_id: 'eth0',
      description: 'Connection for the HTTP and DB Servers.',
    },
  },
  {
    section: '§8',
    path: 'instance/agent',
    sent: {
      id: 'nprobe@apache-server',
      agent_catalog_id: 'nprobe',
      exec_env_id: 'apache-server',
      status: 'stopped',
      operations: [{ parameters: [{ id: 'network-interface', value: 'eth0' }], actions: [{ id: 'start' }] }],
    },
  },
  {
    section: '§7',
    path: 'data',
    sent: {
      id: 'dsalkasdioi232382yieyqwuiy',
      agent_instance_id: 'nprobe@apache-server',
      timestamp_event: '2020-06-04T09:22:09',
      timestamp_agent: '2020-06-04T09:22:19',
    },
  },
  {
    section: '§9',
    path: 'catalog/ebpf-program',
    sent: {
      id: 'packet-counter',
      description: 'Counts the packets crossing the interface it is attached to.',
      config: {
        code: [
          'BPF_ARRAY(PKT_COUNTER, uint64_t, 1);',
          'static __always_inline int handle_rx(struct CTXTYPE *ctx, struct pkt_metadata *md) {',
          '  unsigned int key = 0;',
          '  uint64_t *n = PKT_COUNTER.lookup(&key);',
          '  if (n) *n += 1;',
          '  return RX_OK;',
          '}',
        ],
        metrics: [
          {
            name: 'packets_total',
            'map-name': 'PKT_COUNTER',
            'open-metrics-metadata': {
              type: 'counter',
              help: 'Number of packets seen by this probe.',
              labels: [{ name: 'IP_PROTO', value: 'UDP' }],
            },
          },
        ],
      },
      parameters: [{ id: 'interface', type: 'string', example: 'eno1', description: 'Network interface to attach to.' }],
    },
  },
  {
    section: '§10',
    path: 'instance/ebpf-program',
    sent: {
      id: 'packet-counter@apache-server',
      ebpf_program_catalog_id: 'packet-counter',
      exec_env_id: 'apache-server',
      interface: 'eth0',
    },
  },
  {
    section: '§11',
    path: 'catalog/algorithm',
    sent: {
      id: 'ddos-predictor',
      description: 'DDoS predictor.',
      parameters: [{ id: 'frequency', type: 'time-duration', description: 'Frequency to scan the network.', example: '10s' }],
    },
  },
  {
    section: '§12',
    path: 'instance/algorithm',
    sent: {
      id: 'ddos-predictor-1',
      algorithm_catalog_id: 'ddos-predictor',
      description: 'DDoS predictor.',
      operations: [{ parameters: [{ id: 'frequency', value: '30s' }] }],
    },
  },
  {
    section: '§13',
    path: 'pipeline',
    sent: {
      id: 'test-pipeline',
      created_at: 1617278285,
      updated_at: 1617278340,
      name: 'test pipeline guard-vdpi udt',
      user: 'Minds & Sparks',
      status: 'started',
      agent_instance_ids: ['nprobe@apache-server'],
      algorithm_instance_ids: ['ddos-predictor-1'],
    },
  },
];

const DISPLAY_NAMES: Record<string, string> = {
  'type/exec-env': 'Execution environment type',
  'exec-env': 'Execution environment',
  'network-link': 'Network link',
  connection: 'Connection',
  data: 'Data',
  'instance/agent': 'Agent instance',
  'catalog/ebpf-program': 'eBPF program catalog',
  'instance/ebpf-program': 'eBPF program instance',
  'catalog/algorithm': 'Algorithm catalog',
  'instance/algorithm': 'Algorithm instance',
  pipeline: 'Pipeline',
};

describe.each(databaseKinds())('other-families.md examples on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  // Sequential on purpose: each example names records the earlier ones created.
  it('accepts every example in the order the spec gives, each reading back as sent', async () => {
    for (const { section, path, sent, stored } of EXAMPLES) {
      const response = await api.create(path, sent);
      expect({ section, status: response.status, body: response.body }).toEqual({
        section,
        status: 201,
        body: [
          { status: 'Created', code: 201, error: false, message: `${DISPLAY_NAMES[path]} with id=${String(sent.id)} correctly created` },
        ],
      });
      const read = await api.read(path, sent.id as string);
      expect({ section, text: read.text }).toEqual({ section, text: JSON.stringify([stored ?? sent]) });
    }
  });

  it('answers the docs requests on them: select hostname, update hostname, data select, delete by id', async () => {
    const selected = await api.read('exec-env', undefined, {
      select: ['hostname'],
      where: { equals: { target: 'id', expr: 'apache-server' } },
    });
    expect(selected.body).toEqual([{ id: 'apache-server', hostname: '10.0.0.1' }]);
    expect((await api.update('exec-env', { id: 'apache-server', hostname: '10.0.0.2' })).status).toBe(200);
    const data = await api.read('data', undefined, {
      select: ['type_id'],
      where: { equals: { target: 'id', expr: 'dsalkasdioi232382yieyqwuiy' } },
    });
    expect(data.body).toEqual([{ id: 'dsalkasdioi232382yieyqwuiy' }]);
    expect((await api.update('data', { id: 'dsalkasdioi232382yieyqwuiy', source: '10.0.0.5' })).status).toBe(200);
    const deleted = await api.remove('connection', undefined, { where: { equals: { target: 'id', expr: 'http-db-connection' } } });
    expect(deleted.status).toBe(205);
    expect(deleted.body[0].message).toBe('Connection with id=http-db-connection correctly deleted');
  });

  it('lets a referenced record be deleted, leaving the records that name it as they are', async () => {
    expect((await api.remove('instance/agent', 'nprobe@apache-server')).status).toBe(205);
    expect((await api.stored('pipeline', 'test-pipeline')).agent_instance_ids).toEqual(['nprobe@apache-server']);
    expect((await api.stored('data', 'dsalkasdioi232382yieyqwuiy')).agent_instance_id).toBe('nprobe@apache-server');
    expect(
      (await api.update('pipeline', { id: 'test-pipeline', agent_instance_ids: ['nprobe@apache-server'], status: 'stopped' })).status,
    ).toBe(200);
  });
});

/**
 * Requests shaped as the original's real clients send them (other-families.md, client tables),
 * on a fresh database with the demo data, in the order a deployment would send them.
 */
describe.each(databaseKinds())('real clients of the original on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const scEbpf = 'sc-ebpf-123456789 node-1';
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('astrid installer: the 9-item exec-env type POST', async () => {
    const types = ['bare-metal', 'container-docker', 'container-k8s', 'vm', 'cloud', 'application', 'gateway', 'mobile', 'raspberry'].map(
      (id) => ({
        id,
        name: id.replace(/-/g, ' '),
      }),
    );
    const response = await api.create('type/exec-env', types);
    expect(response.status).toBe(201);
    expect(response.body.map((envelope: { message: string }) => envelope.message)).toEqual(
      types.map(({ id }) => `Execution environment type with id=${id} correctly created`),
    );
  });

  it('astrid-controller: the exec-env POST array with enabled "Yes" and an id with a space, then its GET readers', async () => {
    const nodes = [
      {
        lcp: { port: 4000, https: false },
        description: 'sc-ebpf node',
        id: scEbpf,
        type_id: 'container-docker',
        hostname: 'node-1.astrid',
        enabled: 'Yes',
      },
      {
        lcp: { port: 4000, https: false },
        description: 'node',
        id: 'node-2',
        type_id: 'container-docker',
        hostname: 'node-2.astrid',
        enabled: 'Yes',
      },
    ];
    expect((await api.create('exec-env', nodes)).status).toBe(201);
    const all = await api.read('exec-env');
    expect(all.status).toBe(200);
    expect(all.body).toEqual(nodes.map((node) => ({ ...node, enabled: true })));
    // getExecutionEnvironment's lcp reader rejects unknown keys.
    for (const record of all.body)
      expect(
        Object.keys(record.lcp).every((key) => ['port', 'https', 'started', 'last_heartbeat', 'username', 'password'].includes(key)),
      ).toBe(true);
    // InfrastructureInfoRequest strips the outer brackets and parses one object.
    const one = await request(t.url)
      .get(`/exec-env/${encodeURIComponent(scEbpf)}`)
      .set('Authorization', bearer());
    expect(one.status).toBe(200);
    expect(JSON.parse(one.text.slice(1, -1))).toEqual({ ...nodes[0], enabled: true });
  });

  it('astrid installer: exec-env.sh POST with port 5000', async () => {
    const body = [
      {
        lcp: { port: 5000, https: false },
        id: 'node-3',
        description: 'exec-env',
        type_id: 'container-docker',
        hostname: 'node-3',
        enabled: 'Yes',
      },
    ];
    expect((await api.create('exec-env', body)).status).toBe(201);
    expect((await api.stored('exec-env', 'node-3')).enabled).toBe(true);
  });

  it('interception data agent: the exec-env POST without lcp.https stores https false', async () => {
    const body = [
      {
        lcp: { port: 4000 },
        id: 'interception-node',
        description: 'Interception node',
        type_id: 'container-docker',
        hostname: '10.0.0.9',
        enabled: 'Yes',
      },
    ];
    expect((await api.create('exec-env', body)).status).toBe(201);
    expect(await api.stored('exec-env', 'interception-node')).toEqual({ ...body[0], enabled: true, lcp: { port: 4000, https: false } });
  });

  it('astrid-framework cnit.json: an exec-env batch with partner, stage and boolean enabled', async () => {
    const body = [
      {
        id: 'cnit-1',
        hostname: '192.168.1.10',
        type_id: 'vm',
        enabled: true,
        partner: 'cnit',
        stage: 'prod',
        lcp: { port: 4000, https: false },
      },
      {
        id: 'cnit-2',
        hostname: '192.168.1.11',
        type_id: 'vm',
        enabled: false,
        partner: 'cnit',
        stage: 'test',
        lcp: { port: 4000, https: true },
      },
    ];
    expect((await api.create('exec-env', body)).status).toBe(201);
    expect((await api.read('exec-env', undefined, { where: { equals: { target: 'partner', expr: 'cnit' } } })).text).toBe(
      JSON.stringify(body),
    );
  });

  it('locust: the GET, POST, PUT and DELETE shapes with partner, on exec-env types, exec-envs, network links and connections', async () => {
    const byPartner = { where: { equals: { target: 'partner', expr: 'locust' } } };
    const selectByPartner = { select: ['id'], ...byPartner };
    expect((await api.create('type/exec-env', { id: 'locust-type', name: 'Locust', partner: 'locust' })).status).toBe(201);
    expect(
      (
        await api.create('exec-env', {
          id: 'locust-env',
          name: 'Locust',
          partner: 'locust',
          type_id: 'locust-type',
          hostname: 'locust',
          enabled: true,
          lcp: { port: 4000, https: false },
          stage: 'locust',
        })
      ).status,
    ).toBe(201);
    expect(
      (await api.create('network-link', { id: 'locust-link', type_id: 'slice', exec_env_id: 'locust-env', partner: 'locust' })).status,
    ).toBe(201);
    const envIds = (await api.read('exec-env', undefined, selectByPartner)).body;
    const linkIds = (await api.read('network-link', undefined, selectByPartner)).body;
    expect(envIds).toEqual([{ id: 'locust-env' }]);
    expect(linkIds).toEqual([{ id: 'locust-link' }]);
    expect(
      (
        await api.create('connection', {
          id: 'locust-connection',
          exec_env_id: envIds[0].id,
          network_link_id: linkIds[0].id,
          partner: 'locust',
        })
      ).status,
    ).toBe(201);
    for (const path of ['type/exec-env', 'exec-env', 'network-link', 'connection']) {
      expect((await api.read(path)).status).toBe(200);
      expect((await api.read(path, undefined, { select: ['id'] })).status).toBe(200);
      const [{ id }] = (await api.read(path, undefined, selectByPartner)).body;
      expect((await api.update(path, { id, updated: true })).status).toBe(200);
    }
    for (const path of ['connection', 'network-link', 'exec-env', 'type/exec-env']) {
      const response = await api.remove(path, undefined, byPartner);
      expect(response.status).toBe(205);
      expect(response.body).toHaveLength(1);
    }
  });

  it('catalog entries the agent clients name exist once added', async () => {
    const entries = ['packetbeat', 'fuzzer', 'interception-agent'].map((id) => ({
      id,
      actions: ['start', 'stop', 'deploy', 'resume', 'pause', 'kill', 'execute'].map((action) => ({
        id: action,
        config: { cmd: `${id} ${action}` },
      })),
    }));
    expect((await api.create('catalog/agent', entries)).status).toBe(201);
  });

  it('astrid-controller: registerDeployment POST, then startAgents PUT as hand-written JSON with CRLF', async () => {
    const posted = await api.create('instance/agent', [
      { exec_env_id: 'node-2', agent_catalog_id: 'packetbeat', id: 'packetbeat@node-2', status: 'started' },
    ]);
    expect(posted.status).toBe(201);
    const text = '{\r\n"operations":[{"actions":[{"id":"start"}]}],\r\n"id":"packetbeat@node-2"\r\n}';
    const put = await request(t.url)
      .put('/instance/agent')
      .set('Authorization', bearer())
      .set('Content-Type', 'application/json')
      .send(text);
    expect(put.status).toBe(200);
    expect(await api.stored('instance/agent', 'packetbeat@node-2')).toEqual({
      exec_env_id: 'node-2',
      agent_catalog_id: 'packetbeat',
      id: 'packetbeat@node-2',
      status: 'started',
      operations: [{ actions: [{ id: 'start' }] }],
    });
  });

  it('request.http and packetbeat-mgmt.http: GET by agent_catalog_id, PUT execute and stop operations', async () => {
    const found = await api.read('instance/agent', undefined, {
      select: ['id', 'status'],
      where: { equals: { target: 'agent_catalog_id', expr: 'packetbeat' } },
    });
    expect(found.body).toEqual([{ id: 'packetbeat@node-2', status: 'started' }]);
    const mgmt = await api.read('instance/agent', undefined, {
      select: ['id', 'status', 'agent_catalog_id'],
      where: { and: [{ equals: { target: 'agent_catalog_id', expr: 'packetbeat' } }] },
    });
    expect(mgmt.body[0].id).toBe('packetbeat@node-2');
    expect(
      (await api.update('instance/agent', { id: 'packetbeat@node-2', operations: [{ actions: [{ id: 'execute', run: 'ls -la' }] }] }))
        .status,
    ).toBe(200);
    expect((await api.update('instance/agent', { id: 'packetbeat@node-2', operations: [{ actions: [{ id: 'stop' }] }] })).status).toBe(200);
    expect((await api.stored('instance/agent', 'packetbeat@node-2')).operations).toEqual([{ actions: [{ id: 'stop' }] }]);
  });

  it('interception data agent: the instance POST with operations as an object, then the start and stop PUTs', async () => {
    const caller = { userID: 'user-1', serviceProviderID: 'sp-1', serviceID: 'svc-1' };
    const posted = await api.create('instance/agent', [
      {
        id: 'interception-agent@interception-node',
        agent_catalog_id: 'interception-agent',
        exec_env_id: 'interception-node',
        description: 'Interception agent',
        status: 'started',
        operations: { actions: [{ id: 'start', ...caller }] },
      },
    ]);
    expect(posted.status).toBe(201);
    expect((await api.stored('instance/agent', 'interception-agent@interception-node')).operations).toEqual({
      actions: [{ id: 'start', ...caller }],
    });
    for (const action of ['stop', 'start']) {
      const put = await api.update('instance/agent', [
        {
          id: 'interception-agent@interception-node',
          description: `Interception agent (${action})`,
          operations: { actions: [{ id: action, ...caller }] },
        },
      ]);
      expect(put.status).toBe(200);
      expect((await api.stored('instance/agent', 'interception-agent@interception-node')).operations).toEqual({
        actions: [{ id: action, ...caller }],
      });
    }
  });

  it('fuzzing agent: the instance POST without status stores status unknown', async () => {
    const body = {
      id: 'fuzzer@node-3',
      agent_catalog_id: 'fuzzer',
      exec_env_id: 'node-3',
      operations: {
        parameters: [
          { id: 'target', value: '10.0.0.1' },
          { id: 'port', value: 80 },
          { id: 'duration', value: '5m' },
        ],
        actions: [{ id: 'deploy' }, { id: 'resume' }, { id: 'pause' }, { id: 'kill' }],
      },
    };
    expect((await api.create('instance/agent', body)).status).toBe(201);
    expect(await api.stored('instance/agent', 'fuzzer@node-3')).toEqual({ ...body, status: 'unknown' });
  });

  it('astrid-controller firewalls: POST with repeated action ids, PUT with the full new list, GET through a strict reader', async () => {
    const old = [
      { id: 'default', action: 'accept', timestamp: '2021-03-01T10:00:00' },
      { id: 'insert', n: 1, src: '10.0.0.5', dst: '10.0.0.1', action: 'drop', timestamp: '2021-03-01T10:00:01' },
      { id: 'insert', n: 2, src: '10.0.0.6', dst: '10.0.0.1', action: 'drop', timestamp: '2021-03-01T10:00:02' },
    ];
    const created = await api.create('instance/agent', {
      id: 'firewall@node-2',
      agent_catalog_id: 'firewall',
      exec_env_id: 'node-2',
      status: 'started',
      actions: old,
    });
    expect(created.status).toBe(201);
    const next = [...old, { id: 'insert', n: 3, src: '10.0.0.7', dst: '10.0.0.1', action: 'drop', timestamp: '2021-03-01T11:00:00' }];
    expect((await api.update('instance/agent', { id: 'firewall@node-2', actions: next })).status).toBe(200);
    const all = await api.read('instance/agent');
    const firewall = all.body.find((record: { id: string }) => record.id === 'firewall@node-2');
    expect(firewall.actions).toEqual(next);
    // InstanceFirewallsService's actions reader knows only these keys.
    for (const record of all.body) {
      for (const action of record.actions ?? [])
        expect(Object.keys(action).every((key) => ['id', 'action', 'n', 'src', 'dst', 'timestamp'].includes(key))).toBe(true);
    }
    expect((await api.read('instance/agent', 'firewall@node-2')).status).toBe(200);
  });

  it('astrid-framework agent-instance.json: a batch whose templated item names no execution environment', async () => {
    const response = await api.create('instance/agent', [
      { id: 'packetbeat@node-3', exec_env_id: 'node-3', agent_catalog_id: 'packetbeat', status: 'stopped', partner: 'cnit' },
      { id: 'packetbeat@{{node-n}}', exec_env_id: '{{node-n}}', agent_catalog_id: 'packetbeat', status: 'stopped', partner: 'cnit' },
    ]);
    expect(response.status).toBe(207);
    expect(response.body[0].code).toBe(201);
    expect(response.body[1]).toEqual({
      status: 'Not Acceptable',
      code: 406,
      error: true,
      message: { exec_env_id: 'Execution environment with id={{node-n}} not found' },
    });
  });

  it('eBPF: catalog uploads (one string of code, or lines with empty labels), a dynamic monitor, its strict reader, its delete', async () => {
    const bau = {
      id: 'dns_bau',
      description: 'DNS business as usual',
      config: {
        code: '#include <uapi/linux/ip.h>\r\nBPF_HASH(DNS_COUNTER, u32, u64);\r\nstatic __always_inline int handle_rx(struct CTXTYPE *ctx) { return RX_OK; }\r\n',
        metrics: [
          {
            name: 'Total DNS packets',
            'map-name': 'DNS_COUNTER',
            'open-metrics-metadata': { type: 'counter', help: 'DNS packets.', labels: [{ name: 'IP_PROTO', value: 'UDP' }] },
          },
        ],
      },
      parameters: [{ id: 'interface', type: 'string', example: 'eno1' }],
    };
    const capture = {
      id: 'packet-capture',
      partner: 'polito',
      config: {
        code: ['int capture(void) {', '  return 0;', '}'],
        metrics: [{ name: 'captured', 'map-name': 'CAPTURED', 'open-metrics-metadata': { type: 'counter', labels: [] } }],
      },
    };
    expect((await api.create('catalog/ebpf-program', bau)).status).toBe(201);
    expect((await api.create('catalog/ebpf-program', capture)).status).toBe(201);
    expect((await api.read('catalog/ebpf-program')).text).toBe(JSON.stringify([bau, capture]));

    const monitor = { ebpf_program_catalog_id: 'dns_bau', id: 'dyn-id-1', description: 'Collect', exec_env_id: scEbpf, interface: 'eth0' };
    expect((await api.create('instance/ebpf-program', monitor)).status).toBe(201);
    expect(
      (
        await api.create('instance/ebpf-program', [
          {
            id: 'packet-capture@node-2',
            exec_env_id: 'node-2',
            ebpf_program_catalog_id: 'packet-capture',
            interface: 'ens3',
            parameters: [{ id: 'interface', value: 'ens3' }],
          },
        ])
      ).status,
    ).toBe(201);
    // getEbpfCodes reads id, description, ebpf_program_catalog_id, exec_env_id, interface and nothing else.
    const all = await api.read('instance/ebpf-program');
    for (const record of all.body)
      expect(
        Object.keys(record).every((key) => ['id', 'description', 'ebpf_program_catalog_id', 'exec_env_id', 'interface'].includes(key)),
      ).toBe(true);
    const removed = await request(t.url).delete('/instance/ebpf-program/dyn-id-1').set('Authorization', bearer());
    expect(removed.status).toBe(205);
  });

  it('algorithm catalog uploads with examples of every JSON type and choice lists', async () => {
    const body = [
      {
        id: 'cnit-ml',
        name: 'CNIT ML',
        partner: 'cnit',
        parameters: [
          { id: 'window', type: 'integer', example: 10, min: 1, max: 60 },
          { id: 'threshold', type: 'number', example: 0.8 },
        ],
      },
      {
        id: 'atk-decision-maker',
        parameters: [
          { id: 'enabled', type: 'boolean', example: true },
          { id: 'targets', type: 'choice', list: true, values: ['a', 'b'], example: ['a'] },
        ],
      },
    ];
    expect((await api.create('catalog/algorithm', body)).status).toBe(201);
    expect((await api.read('catalog/algorithm')).text).toBe(JSON.stringify(body));
  });

  it('astrid-controller removals: an exec-env by its id with a space, every connection, every agent instance, every exec-env', async () => {
    expect(
      (
        await request(t.url)
          .delete(`/exec-env/${encodeURIComponent(scEbpf)}`)
          .set('Authorization', bearer())
      ).status,
    ).toBe(205);
    expect([205, 404]).toContain((await request(t.url).delete('/connection').set('Authorization', bearer())).status);
    expect([205, 404]).toContain((await request(t.url).delete('/instance/agent').set('Authorization', bearer())).status);
    expect((await request(t.url).delete('/exec-env').set('Authorization', bearer())).status).toBe(205);
    expect((await api.read('exec-env')).status).toBe(404);
    // Nothing cascades: the eBPF instance on node-2 is still there, naming a deleted exec-env.
    expect((await api.stored('instance/ebpf-program', 'packet-capture@node-2')).exec_env_id).toBe('node-2');
  });
});
