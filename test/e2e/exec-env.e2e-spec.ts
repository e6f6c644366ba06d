import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

describeRecordContract({
  path: 'exec-env',
  resourceName: 'Execution environment',
  authorization: () => bearer(),
  prerequisites: () => [{ path: 'type/exec-env', body: { id: 'contract-vm', name: 'Virtual Machine' }, authorization: () => bearer() }],
  valid: () => ({
    description: 'Apache HTTP Web Server',
    type_id: 'contract-vm',
    hostname: '10.0.0.1',
    enabled: true,
    lcp: { port: 4000, https: false, endpoint: 'lcp', username: 'operator' },
    stage: { name: 'test', order: [1, 2] },
  }),
  invalid: { hostname: 7, enabled: 'maybe', lcp: { port: 'http', https: 'perhaps' } },
  invalidProblems: {
    hostname: 'must be a string',
    type_id: 'required',
    enabled: 'must be a boolean',
    'lcp.port': 'must be an integer',
    'lcp.https': 'must be a boolean',
  },
  change: { hostname: '10.0.0.2', enabled: false },
  invalidChange: { body: { enabled: null }, problems: { enabled: 'required' } },
});

describe.each(databaseKinds())('Execution environment specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const env = (id: string, extra: Record<string, unknown> = {}) => ({ id, type_id: 'vm', hostname: '10.0.0.1', enabled: true, ...extra });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed([
      ['type/exec-env', { id: 'vm', name: 'Virtual Machine' }],
      ['type/exec-env', { id: 'container-docker', name: 'Docker container' }],
    ]);
  });
  afterAll(async () => t?.close());

  describe('type_id references an execution environment type', () => {
    it('refuses a missing type, naming it, and stores nothing', async () => {
      const response = await api.create('exec-env', env('no-type', { type_id: 'no-such-type' }));
      expect(response.status).toBe(406);
      expect(response.body).toEqual([
        {
          status: 'Not Acceptable',
          code: 406,
          error: true,
          message: { type_id: 'Execution environment type with id=no-such-type not found' },
        },
      ]);
      expect((await api.read('exec-env', 'no-type')).status).toBe(404);
    });

    it('answers each batch item on its own: a missing type fails only its item', async () => {
      const response = await api.create('exec-env', [env('batch-good'), env('batch-bad', { type_id: 'nope' })]);
      expect(response.status).toBe(207);
      expect(response.body.map((envelope: { code: number }) => envelope.code)).toEqual([201, 406]);
      expect(response.body[1].message).toEqual({ type_id: 'Execution environment type with id=nope not found' });
    });

    it('checks a changed type on update: another existing one passes, a missing one is refused', async () => {
      await api.seed([['exec-env', env('retyped')]]);
      expect((await api.update('exec-env', { id: 'retyped', type_id: 'container-docker' })).status).toBe(200);
      const missing = await api.update('exec-env', { id: 'retyped', type_id: 'no-such-type' });
      expect(missing.status).toBe(406);
      expect(missing.body[0].message).toEqual({ type_id: 'Execution environment type with id=no-such-type not found' });
      expect((await api.stored('exec-env', 'retyped')).type_id).toBe('container-docker');
    });

    it('lets the type be deleted, and an update that repeats the now dangling type still passes', async () => {
      await api.seed([
        ['type/exec-env', { id: 'short-lived', name: 'Gone soon' }],
        ['exec-env', env('orphan', { type_id: 'short-lived' })],
      ]);
      expect((await api.remove('type/exec-env', 'short-lived')).status).toBe(205);
      expect((await api.stored('exec-env', 'orphan')).type_id).toBe('short-lived');
      const response = await api.update('exec-env', { id: 'orphan', type_id: 'short-lived', description: 'still here' });
      expect(response.status).toBe(200);
      expect(await api.stored('exec-env', 'orphan')).toEqual({ ...env('orphan', { type_id: 'short-lived' }), description: 'still here' });
    });
  });

  describe('enabled and lcp.https take the original boolean words; lcp.port takes digits', () => {
    it.each([
      ['Yes', true],
      ['No', false],
      ['yes', true],
      ['NO', false],
      ['y', true],
      ['N', false],
      ['On', true],
      ['off', false],
      ['T', true],
      ['f', false],
      ['TRUE', true],
      ['False', false],
      ['1', true],
      ['0', false],
      [1, true],
      [0, false],
      [true, true],
      [false, false],
    ])('stores enabled %j as %j', async (sent, stored) => {
      const id = `enabled-${JSON.stringify(sent)}`;
      expect((await api.create('exec-env', env(id, { enabled: sent }))).status).toBe(201);
      const record = await api.stored('exec-env', id);
      expect(record.enabled).toBe(stored);
      expect(record).toEqual(env(id, { enabled: stored }));
    });

    it.each(['maybe', 'Yess', '', 2, -1, 'yes ', null, [true], { value: true }])('refuses enabled %j with its path', async (sent) => {
      const response = await api.create('exec-env', env('enabled-bad', { enabled: sent }));
      expect(response.status).toBe(406);
      expect(Object.keys(response.body[0].message)).toEqual(['enabled']);
    });

    it('converts enabled on update too', async () => {
      await api.seed([['exec-env', env('toggled')]]);
      expect((await api.update('exec-env', { id: 'toggled', enabled: 'No' })).status).toBe(200);
      expect((await api.stored('exec-env', 'toggled')).enabled).toBe(false);
      expect((await api.update('exec-env', { id: 'toggled', enabled: 'off' })).status).toBe(304);
      const bad = await api.update('exec-env', { id: 'toggled', enabled: 'maybe' });
      expect(bad.status).toBe(406);
      expect(Object.keys(bad.body[0].message)).toEqual(['enabled']);
    });

    it('stores a port of digits as a number and https words as a boolean', async () => {
      expect((await api.create('exec-env', env('digits', { lcp: { port: '4000', https: 'Yes' } }))).status).toBe(201);
      const response = await api.read('exec-env', 'digits');
      expect(response.body[0].lcp).toEqual({ port: 4000, https: true });
      expect(response.text).toContain('"port":4000');
    });

    it.each(['40a0', '4000.5', 4000.5, '', ' 4000', '-1', true])('refuses the port %j with its path', async (port) => {
      const response = await api.create('exec-env', env('port-bad', { lcp: { port, https: false } }));
      expect(response.status).toBe(406);
      expect(Object.keys(response.body[0].message)).toEqual(['lcp.port']);
    });

    it('refuses https words it does not know, with the path', async () => {
      const response = await api.create('exec-env', env('https-bad', { lcp: { port: 4000, https: 'secure' } }));
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ 'lcp.https': 'must be a boolean' });
    });

    it('keeps undeclared fields exactly as sent, words and digit strings included', async () => {
      const record = env('untouched', { stage: 'Yes', lcp: { port: 4000, https: false, username: 'Yes', password: '4000' }, partner: '1' });
      expect((await api.create('exec-env', record)).status).toBe(201);
      expect((await api.read('exec-env', 'untouched')).text).toBe(JSON.stringify([record]));
    });
  });

  describe('lcp.https defaults to false', () => {
    it('stores https: false when lcp comes without it, and adds nothing else', async () => {
      expect((await api.create('exec-env', env('no-https', { lcp: { port: 4000 } }))).status).toBe(201);
      const record = await api.stored('exec-env', 'no-https');
      expect(record).toEqual(env('no-https', { lcp: { port: 4000, https: false } }));
    });

    it('adds no lcp when none is sent', async () => {
      expect((await api.create('exec-env', env('no-lcp'))).status).toBe(201);
      expect(await api.stored('exec-env', 'no-lcp')).toEqual(env('no-lcp'));
    });

    it('still requires lcp.port when lcp is present', async () => {
      const response = await api.create('exec-env', env('no-port', { lcp: { https: true } }));
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ 'lcp.port': 'required' });
    });
  });

  describe('lcp is read-only as a whole; lcp.started and lcp.last_heartbeat are set by the service', () => {
    it('refuses a changed lcp, and passes one that repeats the stored value', async () => {
      await api.seed([['exec-env', env('fixed-lcp', { lcp: { port: 4000, https: false } })]]);
      for (const lcp of [{ port: 5000 }, { https: true }, { endpoint: 'x' }, null]) {
        const response = await api.update('exec-env', { id: 'fixed-lcp', lcp });
        expect(response.status).toBe(406);
        expect(response.body[0].message).toEqual({ lcp: 'read-only' });
      }
      expect((await api.update('exec-env', { id: 'fixed-lcp', lcp: { port: 4000, https: false } })).status).toBe(304);
      expect((await api.update('exec-env', { id: 'fixed-lcp', lcp: { port: '4000', https: 'no' } })).status).toBe(304);
      expect((await api.update('exec-env', { id: 'fixed-lcp', lcp: { port: 4000 }, hostname: 'moved' })).status).toBe(200);
      expect(await api.stored('exec-env', 'fixed-lcp')).toEqual(env('fixed-lcp', { hostname: 'moved', lcp: { port: 4000, https: false } }));
    });

    it('refuses adding lcp to a record created without one', async () => {
      await api.seed([['exec-env', env('late-lcp')]]);
      const response = await api.update('exec-env', { id: 'late-lcp', lcp: { port: 4000 } });
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ lcp: 'read-only' });
    });

    it.each([
      ['lcp.started', { started: '2026-11-21T10:00:00' }],
      ['lcp.last_heartbeat', { last_heartbeat: '2026-11-21T10:00:00' }],
      ['lcp.last_heartbeat', { last_heartbeat: null }],
    ])('refuses %s from a client on create', async (path, field) => {
      const response = await api.create('exec-env', env('heartbeat', { lcp: { port: 4000, https: false, ...field } }));
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ [path]: 'set by the service' });
    });

    it('refuses lcp.started from a client on update', async () => {
      await api.seed([['exec-env', env('beating', { lcp: { port: 4000, https: false } })]]);
      const response = await api.update('exec-env', { id: 'beating', lcp: { started: '2026-11-21T10:00:00' } });
      expect(response.status).toBe(406);
      expect(response.body[0].message).toMatchObject({ 'lcp.started': 'set by the service' });
    });
  });

  it('requires hostname, type_id and enabled', async () => {
    const response = await api.create('exec-env', { id: 'bare' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ hostname: 'required', type_id: 'required', enabled: 'required' });
  });

  it('serves an id with a space, by path too (real controller ids)', async () => {
    const id = 'sc-ebpf-123456789 node-1';
    expect((await api.create('exec-env', env(id, { enabled: 'Yes' }))).status).toBe(201);
    const response = await api.read('exec-env', id);
    expect(response.body).toEqual([env(id)]);
    expect((await api.remove('exec-env', id)).status).toBe(205);
  });

  it('documents types, the reference, read-only lcp, server-set times, the https default and a partial PUT', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/exec-env')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/exec-env/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/exec-env', 'post');
    expect([...post.required].sort()).toEqual(['enabled', 'hostname', 'type_id']);
    expect(doc.property(post, 'hostname').type).toBe('string');
    expect(doc.property(post, 'enabled').type).toBe('boolean');
    const typeId = doc.property(post, 'type_id');
    expect(typeId.type).toBe('string');
    expect(typeId['x-references']).toBe('exec-env-type');
    expect(typeId.description).toContain('Execution environment type (`/type/exec-env`)');
    expect(doc.property(post, 'lcp').readOnly).toBe(true);
    const port = doc.property(post, 'lcp.port');
    expect(port).toMatchObject({ type: 'integer', minimum: 1, maximum: 65535 });
    expect(doc.property(post, 'lcp.https')).toMatchObject({ type: 'boolean', default: false });
    expect(doc.property(post, 'lcp.started').readOnly).toBe(true);
    expect(doc.property(post, 'lcp.last_heartbeat').readOnly).toBe(true);
    expect(doc.resolve(post.properties.lcp).required).toEqual(['port']);
    expect(doc.body('/exec-env', 'put').required ?? []).toEqual([]);
  });
});
