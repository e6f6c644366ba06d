import { captureLog, CapturedLog } from '../support/captured-log';
import { exchange } from '../support/http-exchange';
import { FailingRoutesModule } from '../support/failing-routes';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';
import { rawExchange } from '../support/raw-http';

/**
 * README "Logs": every answer carries its request id (the client's valid X-Request-Id, else a
 * new UUID), a 500's ref is that id, and the id is on every log line of the request. Logs are
 * read from the root logger as main.ts builds it, writing into memory.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(databaseKinds())('request ids (%s)', (kind) => {
  let t: TestApp;
  let log: CapturedLog;
  beforeAll(async () => {
    log = captureLog();
    t = await createTestApp(kind, { imports: [FailingRoutesModule], log: log.logger, env: { INVENTORY_ACCESS_LOG: 'true' } });
  });
  afterAll(async () => t?.close());

  const withId = (id: string, headers: Record<string, string> = {}) => ({ headers: { 'X-Request-Id': id, ...headers } });

  it.each([
    ['a record read', 'GET', '/type/network-link/p2p', basic(), 200],
    ['a streamed collection read', 'GET', '/catalog/agent', bearer(), 200],
    ['a 401', 'GET', '/event', 'Bearer not-a-token', 401],
    ['a 401 without credentials', 'GET', '/event', '', 401],
    ['a 404 from the router', 'GET', '/no/such/route', '', 404],
    ['a 404 from a family', 'GET', '/type/network-link/absent', basic(), 404],
    ['a 405 from the adapter', 'PATCH', '/event', bearer(), 405],
    ['a 400 for a malformed URL', 'GET', '/type/network-link/%E0%A4', basic(), 400],
  ])('keeps a valid X-Request-Id and echoes it on %s', async (_, method, path, authorization, status) => {
    const id = `keep-${status}-${Math.random().toString(36).slice(2)}`;
    const answer = await exchange(t.url, method, path, withId(id, authorization ? { Authorization: authorization } : {}));
    expect({ status: answer.status, id: answer.headers['x-request-id'] }).toEqual({ status, id });
  });

  it('echoes it on a write whose body was read', async () => {
    const answer = await exchange(t.url, 'POST', '/event', {
      ...withId('write-1', { Authorization: bearer() }),
      body: { id: 'rid-1', source: 's' },
    });
    expect({ status: answer.status, id: answer.headers['x-request-id'] }).toEqual({ status: 201, id: 'write-1' });
  });

  it.each([
    ['longer than 128 characters', 'x'.repeat(129)],
    ['with a space', 'two words'],
    ['with a quote', 'a"b'],
    ['with a slash', 'a/b'],
  ])('replaces an X-Request-Id %s with a new UUID', async (_, id) => {
    const answer = await exchange(t.url, 'GET', '/health', withId(id));
    expect(answer.headers['x-request-id']).toMatch(UUID);
  });

  it('generates a different UUID for each request without one', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await exchange(t.url, 'GET', '/health')).headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });

  it('gives even the HTTP parser’s own refusals an id', async () => {
    const answer = await rawExchange(t.url, {
      send: (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n'),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toMatch(UUID);
  });

  it('makes the request id the ref of a 500, in the answer, its header and the log line of the failure', async () => {
    const answer = await exchange(t.url, 'GET', '/test-only/fail/unexpected', withId('trace-500'));
    expect(answer.status).toBe(500);
    expect(answer.headers['x-request-id']).toBe('trace-500');
    expect(answer.body).toEqual([{ status: 'Internal Server Error', code: 500, error: true, message: 'Internal error (ref trace-500)' }]);
    const failure = log.lines().find((line) => line.msg === 'unexpected failure' && line.reqId === 'trace-500');
    expect(failure).toMatchObject({ level: 'error', context: 'Errors', ref: 'trace-500' });
    expect(failure!.error).toContain('SELECT secret');
    // The detail is for the log alone.
    expect(JSON.stringify(answer.body)).not.toContain('SELECT');
  });

  it('makes up a new id as the ref when the client sent none, and it is the answer’s X-Request-Id', async () => {
    const answer = await exchange(t.url, 'GET', '/test-only/fail/unexpected');
    const id = answer.headers['x-request-id'] as string;
    expect(id).toMatch(UUID);
    expect(answer.body[0].message).toBe(`Internal error (ref ${id})`);
  });

  it('puts the id on every line a request logs: its access line and its authentication failure', async () => {
    await exchange(t.url, 'GET', '/type/network-link', withId('every-line', { Authorization: basic('admin', 'wrong password') }));
    const lines = log.lines().filter((line) => line.reqId === 'every-line');
    expect(lines.map((line) => line.msg).sort()).toEqual(['authentication failed', 'request']);
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({
      context: 'Access',
      method: 'GET',
      route: '/type/network-link',
      status: 401,
    });
  });
});
