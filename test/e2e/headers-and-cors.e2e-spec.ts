import { exchange, Exchange } from '../support/http-exchange';
import { rawExchange } from '../support/raw-http';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/**
 * README "Headers" and "CORS": security headers on every answer, and cross-origin access only
 * for the origins INVENTORY_CORS_ORIGINS lists, preflights answered on every route.
 */

const SECURITY = {
  'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const corsHeaders = (answer: Exchange) => Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));

describe.each(databaseKinds())('security headers (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it.each([
    ['a record', 'GET', '/type/network-link/p2p', basic(), 200],
    ['a streamed read', 'GET', '/catalog/agent', bearer(), 200],
    ['a created envelope', 'POST', '/type/exec-env', bearer(), 201],
    ['a 404', 'GET', '/no/such/route', '', 404],
    ['a 401', 'GET', '/event', '', 401],
    ['a 405', 'TRACE', '/event', bearer(), 405],
    ['the Swagger UI page', 'GET', '/api/doc', '', 200],
    ['the OpenAPI document', 'GET', '/api/doc/swagger.json', '', 200],
    ['/health', 'GET', '/health', '', 200],
  ])('are on %s', async (_, method, path, authorization, status) => {
    const body = method === 'POST' ? { id: `headers-${Math.random().toString(36).slice(2)}`, name: 'x' } : undefined;
    const answer = await exchange(t.url, method, path, { headers: authorization ? { Authorization: authorization } : {}, body });
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject(SECURITY);
  });

  it('let Swagger UI’s page work: its scripts are files of this origin, its styles inline', async () => {
    const csp = (await exchange(t.url, 'GET', '/api/doc')).headers['content-security-policy'] as string;
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
      ]),
    );
    expect(csp).not.toContain('unsafe-eval');
  });

  it('are on the HTTP parser’s own refusals', async () => {
    const answer = await rawExchange(t.url, {
      send: (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n'),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers).toMatchObject(SECURITY);
  });

  it('without INVENTORY_CORS_ORIGINS, no CORS at all: a preflight is an OPTIONS like any other (405)', async () => {
    const preflight = await exchange(t.url, 'OPTIONS', '/exec-env/apache-server', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(preflight.status).toBe(405);
    expect(corsHeaders(preflight)).toEqual([]);
    const read = await exchange(t.url, 'GET', '/catalog/agent', { headers: { Origin: 'https://app.example', Authorization: bearer() } });
    expect(read.status).toBe(200);
    expect(corsHeaders(read)).toEqual([]);
  });
});

describe.each(databaseKinds())('CORS with INVENTORY_CORS_ORIGINS (%s)', (kind) => {
  const allowed = 'https://app.example';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { INVENTORY_CORS_ORIGINS: `${allowed},http://localhost:3000` } });
  });
  afterAll(async () => t?.close());

  const preflight = (path: string, origin: string, method = 'PUT') =>
    exchange(t.url, 'OPTIONS', path, {
      headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization,content-type' },
    });

  it.each(['/exec-env/apache-server', '/exec-env', '/type/network-link/p2p', '/auth/token', '/health'])(
    'answers a preflight from an allowed origin on %s: 204, PUT and DELETE, Authorization and Content-Type',
    async (path) => {
      const answer = await preflight(path, allowed);
      expect(answer.status).toBe(204);
      expect(answer.headers).toMatchObject({
        'access-control-allow-origin': allowed,
        'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE',
        'access-control-allow-headers': 'Authorization, Content-Type, X-Request-Id',
        'access-control-max-age': '600',
        vary: 'Origin',
        ...SECURITY,
      });
      expect(answer.body).toBeUndefined();
    },
  );

  it('gives a preflight from another origin no CORS headers (the browser then refuses the call)', async () => {
    const answer = await preflight('/exec-env/apache-server', 'https://evil.example', 'DELETE');
    expect(answer.status).toBe(405);
    expect(corsHeaders(answer)).toEqual([]);
  });

  it('answers an OPTIONS that is not a preflight with 405 and Allow, as the contract says', async () => {
    const answer = await exchange(t.url, 'OPTIONS', '/exec-env/apache-server', { headers: { Origin: allowed } });
    expect({ status: answer.status, allow: answer.headers.allow }).toEqual({ status: 405, allow: 'GET, HEAD, POST, PUT, DELETE' });
  });

  it('lets an allowed origin read answers, errors included, and see X-Request-Id', async () => {
    for (const [authorization, status] of [
      [bearer(), 200],
      ['', 401],
    ] as const) {
      const answer = await exchange(t.url, 'GET', '/catalog/agent', {
        headers: { Origin: 'http://localhost:3000', ...(authorization ? { Authorization: authorization } : {}) },
      });
      expect(answer.status).toBe(status);
      expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(String(answer.headers['access-control-expose-headers']).split(', ')).toEqual(
        expect.arrayContaining(['X-Request-Id', 'Retry-After']),
      );
    }
  });

  it('gives a request from another origin, or from no browser, no CORS headers', async () => {
    for (const headers of [{ Origin: 'https://evil.example' }, {}] as Record<string, string>[]) {
      const answer = await exchange(t.url, 'GET', '/catalog/agent', { headers: { ...headers, Authorization: bearer() } });
      expect(answer.status).toBe(200);
      expect(corsHeaders(answer)).toEqual([]);
      expect(answer.headers.vary).toBe('Origin');
    }
  });
});
