import { captureLog, CapturedLog } from '../support/captured-log';
import { exchange } from '../support/http-exchange';
import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer, TEST_ADMIN } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

/**
 * README "Logs": pino JSON lines, the access log switched by INVENTORY_ACCESS_LOG, and the
 * credentials of a request never in any line. In-process apps log into memory through the root
 * logger main.ts builds; one real service process proves main.ts wires Nest's own lines in.
 */

const secretsOf = (authorization: string): string[] => {
  const [, credentials] = authorization.split(' ');
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  return [authorization, credentials, ...(authorization.startsWith('Basic') ? [decoded.slice(decoded.indexOf(':') + 1)] : [])];
};

describe.each(databaseKinds())('access log on (%s)', (kind) => {
  let t: TestApp;
  let log: CapturedLog;
  beforeAll(async () => {
    log = captureLog();
    t = await createTestApp(kind, { log: log.logger, env: { INVENTORY_ACCESS_LOG: 'true' } });
  });
  afterAll(async () => t?.close());

  it('writes one line per answer: id, method, route pattern, family, status and duration', async () => {
    await exchange(t.url, 'PUT', '/exec-env-type-missing', { headers: { 'X-Request-Id': 'access-404' } });
    await exchange(t.url, 'POST', '/type/exec-env', {
      headers: { 'X-Request-Id': 'access-201', Authorization: bearer() },
      body: { id: 'vm', name: 'VM' },
    });
    await exchange(t.url, 'GET', '/type/exec-env/vm', { headers: { 'X-Request-Id': 'access-200', Authorization: bearer() } });
    const byId = (id: string) => log.lines().filter((line) => line.reqId === id && line.msg === 'request');
    expect(byId('access-201')).toEqual([
      expect.objectContaining({
        level: 'info',
        context: 'Access',
        method: 'POST',
        route: '/type/exec-env',
        family: '/type/exec-env',
        status: 201,
        ms: expect.any(Number),
      }),
    ]);
    // The route's pattern, not the URL: ids and queries stay out of the log.
    expect(byId('access-200')).toEqual([expect.objectContaining({ route: '/type/exec-env/:id', family: '/type/exec-env', status: 200 })]);
    expect(JSON.stringify(byId('access-200'))).not.toContain('/type/exec-env/vm');
    expect(byId('access-404')).toEqual([expect.objectContaining({ method: 'PUT', route: null, family: 'unmatched', status: 404 })]);
  });

  it('never writes the Authorization header, the token, the Basic credentials or the password, whatever the outcome', async () => {
    const credentials = [
      bearer({ sub: 'log-test' }),
      'Bearer eyJhbGciOiJIUzI1NiJ9.forged.signature',
      basic(),
      basic('admin', 'P4ssw0rd-that-must-not-leak'),
      basic('ghost', 'another-secret-password'),
    ];
    for (const authorization of credentials) {
      await exchange(t.url, 'GET', '/type/network-link', { headers: { Authorization: authorization } });
      await exchange(t.url, 'GET', '/event', { headers: { Authorization: authorization } });
    }
    const text = log.text();
    // Proof that these requests were logged, with the user of a failed Basic login.
    expect(log.lines().filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(10);
    expect(log.lines()).toContainEqual(
      expect.objectContaining({ msg: 'authentication failed', user: 'ghost', scheme: 'basic', address: '127.0.0.1' }),
    );
    for (const authorization of credentials) {
      for (const secret of secretsOf(authorization)) expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(TEST_ADMIN.password);
    expect(text.toLowerCase()).not.toContain('authorization');
  });
});

describe.each(databaseKinds())('access log off (%s)', (kind) => {
  let t: TestApp;
  let log: CapturedLog;
  beforeAll(async () => {
    log = captureLog();
    t = await createTestApp(kind, { log: log.logger, env: { INVENTORY_ACCESS_LOG: 'false' } });
  });
  afterAll(async () => t?.close());

  it('writes no access line, while failures are still logged with their request id', async () => {
    await exchange(t.url, 'GET', '/type/network-link/p2p', { headers: { Authorization: basic(), 'X-Request-Id': 'quiet-200' } });
    await exchange(t.url, 'GET', '/type/network-link/p2p', {
      headers: { Authorization: basic('admin', 'nope'), 'X-Request-Id': 'quiet-401' },
    });
    expect(log.lines().filter((line) => line.msg === 'request')).toEqual([]);
    expect(log.lines().filter((line) => line.reqId !== undefined)).toEqual([
      expect.objectContaining({ level: 'warn', context: 'Auth', msg: 'authentication failed', reqId: 'quiet-401', user: 'admin' }),
    ]);
  });
});

const describeOnce = databaseKinds().includes('sqlite') ? describe : describe.skip;

describeOnce('logs of a service process (main.ts)', () => {
  let database: TestDatabase;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => database?.drop());

  it('writes JSON lines only, Nest’s own among them, and the access log carries the request id', async () => {
    service = await startServiceProcess(database.url, { LOG_LEVEL: 'info', INVENTORY_ACCESS_LOG: 'true' });
    const answer = await exchange(service.url, 'GET', '/catalog/agent/firewall', {
      headers: { Authorization: bearer(), 'X-Request-Id': 'from-process' },
    });
    expect(answer.headers['x-request-id']).toBe('from-process');
    await service.stop();
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('npm warn'));
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed).toContainEqual(expect.objectContaining({ level: 'info', context: 'NestFactory', msg: 'Starting Nest application...' }));
    expect(parsed).toContainEqual(
      expect.objectContaining({ level: 'info', context: 'Server', msg: expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+$/) }),
    );
    expect(parsed).toContainEqual(
      expect.objectContaining({ msg: 'request', reqId: 'from-process', route: '/catalog/agent/:id', status: 200 }),
    );
    expect(service.output()).not.toContain('Bearer');
  });

  it('writes human-readable lines with LOG_FORMAT=pretty', async () => {
    service = await startServiceProcess(database.url, { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    await service.stop();
    expect(service.output()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Server\] listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(service.output()).not.toMatch(/^\{"level"/m);
  });
});
