import request from 'supertest';
import { METHODS, request as httpRequest } from 'node:http';
import { createTestApp, TestApp } from '../support/test-app';
import { databaseKinds } from '../support/test-databases';
import { basic, bearer } from '../support/test-credentials';
import { rawExchange, requestHead } from '../support/raw-http';

/** One request with any method Node's HTTP client can send, WebDAV's included; body as text. */
function anyMethod(url: string, method: string, authorization: string): Promise<{ status: number; allow?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers: { Authorization: authorization } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What the HTTP layer decides before any handler runs: routes, methods, malformed URLs, framing. */
describe.each(databaseKinds())('HTTP routing (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it.each([
    ['PATCH', '/health', 'GET, HEAD'],
    ['POST', '/health', 'GET, HEAD'],
    ['GET', '/auth/token', 'POST'],
    ['OPTIONS', '/event', 'GET, HEAD, POST, PUT, DELETE'],
    ['PATCH', '/event/some-id', 'GET, HEAD, POST, PUT, DELETE'],
    ['PATCH', '/type/network-link/', 'GET, HEAD, POST, PUT, DELETE'],
  ])('%s %s answers 405 with Allow: %s and the envelope', async (method, path, allowed) => {
    const response = await request(t.url)[method.toLowerCase() as 'patch'](path).set('Authorization', bearer());
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allowed);
    expect(response.body).toEqual([{ status: 'Method Not Allowed', code: 405, error: true, message: expect.stringContaining(method) }]);
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await request(t.url).head('/type/network-link/p2p').set('Authorization', basic());
    expect(response.status).toBe(200);
    expect(response.text).toBeUndefined();
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await request(t.url).get('/nope/nothing');
    expect(response.status).toBe(404);
    expect(response.body[0]).toMatchObject({ code: 404, error: true });
  });

  it('answers a malformed percent-encoding with a 400 envelope', async () => {
    const response = await request(t.url).get('/type/network-link/%E0%A4').set('Authorization', basic());
    expect(response.status).toBe(400);
    expect(response.body[0]).toMatchObject({ code: 400, error: true });
  });

  it('routes the longest id the contract allows, URL-encoded, to its record', async () => {
    const id = 'é'.repeat(256);
    const created = await request(t.url).post('/type/network-link').set('Authorization', basic()).send({ id, name: 'long' });
    expect(created.status).toBe(201);
    const read = await request(t.url)
      .get(`/type/network-link/${encodeURIComponent(id)}/`)
      .set('Authorization', basic());
    expect(read.status).toBe(200);
    expect(read.body).toEqual([{ id, name: 'long' }]);
  });

  it('refuses a 257-character id in the URL with the validation answer, not a 404', async () => {
    const response = await request(t.url)
      .put(`/type/network-link/${'x'.repeat(257)}`)
      .set('Authorization', basic())
      .send({ name: 'n' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ id: 'must be at most 256 characters' });
  });

  describe('every other method answers 405, WebDAV and TRACE included', () => {
    const others = (allowed: string[]) => METHODS.filter((method) => method !== 'CONNECT' && !allowed.includes(method));

    const credentials = { jwt: () => bearer(), basic: () => basic(), none: () => '' };

    it.each([
      ['/event', 'jwt', 'GET, HEAD, POST, PUT, DELETE'],
      ['/event/some-id', 'jwt', 'GET, HEAD, POST, PUT, DELETE'],
      ['/type/network-link/', 'basic', 'GET, HEAD, POST, PUT, DELETE'],
      ['/health', 'none', 'GET, HEAD'],
      ['/auth/token', 'basic', 'POST'],
      ['/api/doc/swagger.json', 'none', 'GET, HEAD'],
    ] as const)('%s (%s): every method but %s', async (path, scheme, allow) => {
      const authorization = credentials[scheme]();
      const methods = others(allow.split(', '));
      expect(methods).toEqual(
        expect.arrayContaining(['TRACE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'PATCH', 'OPTIONS']),
      );
      for (const method of methods) {
        const answer = await anyMethod(`${t.url}${path}`, method, authorization);
        expect({ method, status: answer.status, allow: answer.allow }).toEqual({ method, status: 405, allow });
        if (method !== 'HEAD')
          expect(JSON.parse(answer.text)).toEqual([
            { status: 'Method Not Allowed', code: 405, error: true, message: expect.stringContaining(method) },
          ]);
      }
    });

    it('an unknown route asked with a WebDAV method is still a 404', async () => {
      const answer = await anyMethod(`${t.url}/nope`, 'PROPFIND', '');
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text)[0]).toMatchObject({ code: 404, error: true });
    });
  });

  describe('HEAD answers what GET would, without the body', () => {
    it.each([
      ['/type/network-link/p2p', basic()],
      ['/type/network-link', basic()],
      ['/health', ''],
    ])('HEAD %s', async (path, authorization) => {
      const get = await request(t.url).get(path).set('Authorization', authorization);
      const head = await request(t.url).head(path).set('Authorization', authorization);
      expect(head.status).toBe(get.status);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
      expect(head.text).toBeUndefined();
    });

    it('HEAD of a missing record is a 404, and HEAD needs the same credentials', async () => {
      expect((await request(t.url).head('/type/network-link/missing').set('Authorization', basic())).status).toBe(404);
      expect((await request(t.url).head('/type/network-link/p2p')).status).toBe(401);
    });
  });

  describe("the HTTP parser's own refusals are envelopes", () => {
    const exchange = (text: string) => rawExchange(t.url, { send: (socket) => socket.write(text), waitMs: 3000 });

    it.each([
      ['a header line without a colon', 'GET /health HTTP/1.1\r\nHost x\r\n\r\n'],
      [
        'Content-Length with Transfer-Encoding (smuggling)',
        'POST /event HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ],
      ['an unknown method', 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n'],
      [
        'a broken chunk size',
        'POST /event HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n',
      ],
    ])('400 for %s', async (_what, text) => {
      const answer = await exchange(text);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual([{ status: 'Bad Request', code: 400, error: true, message: 'the request is not valid HTTP' }]);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.closed).toBe(true);
    });

    it('431 for headers larger than the parser takes', async () => {
      const answer = await exchange(requestHead('GET', '/health', { 'X-Big': 'a'.repeat(20_000) }));
      expect(answer.status).toBe(431);
      expect(answer.body).toEqual([
        { status: 'Request Header Fields Too Large', code: 431, error: true, message: 'the request headers are too large' },
      ]);
      expect(answer.closed).toBe(true);
    });
  });
});
