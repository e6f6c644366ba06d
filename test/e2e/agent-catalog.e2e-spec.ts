import request from 'supertest';
import { describeRecordContract } from '../contract/record-contract';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

describeRecordContract({
  path: 'catalog/agent',
  resourceName: 'Agent catalog',
  authorization: () => bearer(),
  valid: () => ({
    description: 'Packet filter',
    actions: [{ id: 'start', status: 'started', config: { cmd: 'fw start {port}', args: ['-v'], daemon: true } }],
    parameters: [
      {
        id: 'period',
        type: 'time-duration',
        config: { schema: 'yaml', source: '/etc/fw.yaml', path: ['a', 'b'] },
        example: '30s',
        list: false,
        values: [1, 'x'],
      },
    ],
    resources: [{ id: 'rules', config: { path: '/etc/fw/rules' }, example: 'rules.txt' }],
    deployment_source: ['https://example.invalid/fw.tar.gz'],
  }),
  invalid: { parameters: [{ id: 'p', config: { schema: 'bogus' } }], actions: [{ id: 'a', config: {}, status: 'running' }] },
  invalidProblems: {
    'parameters.0.type': 'required',
    'parameters.0.config.schema': 'must be one of: yaml, json, properties, xml, propeties',
    'actions.0.config.cmd': 'required',
    'actions.0.status': 'must be one of: started, stopped, unknown',
  },
  change: { description: 'Packet filter, v2' },
  invalidChange: {
    body: { actions: [{ id: 'start', status: 'running' }] },
    problems: { 'actions.0.status': 'must be one of: started, stopped, unknown' },
  },
});

describe.each(databaseKinds())('Agent catalog specifics on %s', (kind) => {
  let t: TestApp;
  const http = () => request(t.url);
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('starts with the firewall and nprobe demo entries', async () => {
    const response = await http().get('/catalog/agent').set('Authorization', bearer());
    expect(response.body.map((entry: { id: string }) => entry.id)).toEqual(['firewall', 'nprobe']);
    const [firewall, nprobe] = response.body;
    expect(firewall.actions.map((action: { id: string }) => action.id)).toEqual([
      'start',
      'stop',
      'attach',
      'insert',
      'append',
      'prepend',
      'delete',
      'default',
      'list',
      'stats',
    ]);
    expect(firewall.actions[0].config.cmd).toMatch(/^polycubectl /);
    expect(nprobe.parameters.map((parameter: { id: string }) => parameter.id)).toEqual([
      'network-interface',
      'capture-direction',
      'flow-template',
    ]);
    expect(nprobe.actions.map((action: { id: string }) => action.id)).toEqual(['start', 'stop', 'restart']);
  });

  it('selects only the parameters (the spec example), plus the id', async () => {
    const response = await http()
      .get('/catalog/agent/nprobe')
      .set('Authorization', bearer())
      .send({ select: ['parameters'] });
    expect(Object.keys(response.body[0])).toEqual(['id', 'parameters']);
  });

  it('changes a parameter matched by id and appends a new action (the spec example)', async () => {
    const before = (await http().get('/catalog/agent/nprobe').set('Authorization', bearer())).body[0];
    const response = await http()
      .put('/catalog/agent/nprobe')
      .set('Authorization', bearer())
      .send({
        id: 'nprobe',
        parameters: [{ id: 'capture-direction', type: 'string' }],
        actions: [{ id: 'reload', config: { cmd: 'nprobe --reload' } }],
      });
    expect(response.status).toBe(200);
    const after = (await http().get('/catalog/agent/nprobe').set('Authorization', bearer())).body[0];
    const direction = after.parameters.find((parameter: { id: string }) => parameter.id === 'capture-direction');
    const directionBefore = before.parameters.find((parameter: { id: string }) => parameter.id === 'capture-direction');
    expect(direction).toEqual({ ...directionBefore, type: 'string' });
    expect(after.parameters).toHaveLength(before.parameters.length);
    expect(after.actions.map((action: { id: string }) => action.id)).toEqual([
      ...before.actions.map((action: { id: string }) => action.id),
      'reload',
    ]);
  });

  it('removes a list item with $patch: delete', async () => {
    const response = await http()
      .put('/catalog/agent/firewall')
      .set('Authorization', bearer())
      .send({ id: 'firewall', actions: [{ id: 'stats', $patch: 'delete' }] });
    expect(response.status).toBe(200);
    const after = (await http().get('/catalog/agent/firewall').set('Authorization', bearer())).body[0];
    expect(after.actions.map((action: { id: string }) => action.id)).not.toContain('stats');
    expect(after.actions).toHaveLength(9);
  });

  it('refuses two items with one id in a list', async () => {
    const response = await http()
      .post('/catalog/agent')
      .set('Authorization', bearer())
      .send({
        id: 'twins',
        actions: [
          { id: 'a', config: { cmd: 'x' } },
          { id: 'a', config: { cmd: 'y' } },
        ],
      });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ 'actions.1.id': 'duplicate id' });
  });

  it('finds agents by a path through a list', async () => {
    const response = await http()
      .get('/catalog/agent')
      .set('Authorization', bearer())
      .send({ select: 'id', where: { equals: { target: 'actions.id', expr: 'attach' } } });
    expect(response.body).toEqual([{ id: 'firewall' }]);
  });

  it('accepts the spelling propeties and keeps it as sent', async () => {
    const entry = { id: 'props', parameters: [{ id: 'p', type: 'string', config: { schema: 'propeties' } }] };
    expect((await http().post('/catalog/agent').set('Authorization', bearer()).send(entry)).status).toBe(201);
    expect((await http().get('/catalog/agent/props').set('Authorization', bearer())).body).toEqual([entry]);
  });
});
