import request from 'supertest';
import { request as httpRequest } from 'node:http';
import { createTestApp, TestApp } from '../support/test-app';
import { databaseKinds } from '../support/test-databases';
import { basic, bearer } from '../support/test-credentials';
import { rawExchange, requestHead } from '../support/raw-http';

const SIXTEEN_MB = 16 * 1024 * 1024;
const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * Issue 11, the body side (docs/routes.md and records.md): credentials are checked before a body is read,
 * nesting is refused while the bytes arrive, text the two databases would store differently is
 * refused, and two different ids always name two records. On every database the suite runs on.
 */
describe.each(databaseKinds())('hostile bodies (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const http = () => request(t.url);

  /** Headers announcing 16 MB, then only `sent` of it: an answer now cannot have read the body. */
  const partialBody = (method: string, path: string, headers: Record<string, string>, sent: string) =>
    rawExchange(t.url, {
      send: (socket) => socket.write(requestHead(method, path, { ...JSON_TYPE, 'Content-Length': SIXTEEN_MB, ...headers }) + sent),
      waitMs: 3000,
      firstAnswer: true,
    });

  describe('credentials before the body', () => {
    it.each([
      ['POST', '/event', 'Bearer'],
      ['PUT', '/event/some-id', 'Bearer'],
      ['GET', '/catalog/agent', 'Bearer'],
      ['DELETE', '/catalog/agent', 'Bearer'],
      ['POST', '/type/network-link', 'Basic'],
      ['POST', '/auth/token', 'Basic'],
    ])('%s %s without credentials answers 401 before the body has arrived', async (method, path, scheme) => {
      const answer = await partialBody(method, path, {}, '['.repeat(4096));
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual([{ status: 'Unauthorized', code: 401, error: true, message: 'Authentication failed' }]);
      expect(answer.headers['www-authenticate']).toMatch(new RegExp(`^${scheme} `));
      // The rest of the body is not worth reading: the connection closes after the refusal.
      expect(answer.headers.connection).toBe('close');
      expect(answer.ms).toBeLessThan(2000);
    });

    it.each([
      ['/event', 'Bearer not-a-token'],
      ['/type/network-link', basic('admin', 'wrong password')],
      ['/type/network-link', 'Bearer x'],
    ])('%s with bad credentials (%s) answers 401 before the body too', async (path, authorization) => {
      const answer = await partialBody('POST', path, { Authorization: authorization }, '{"id":');
      expect(answer.status).toBe(401);
    });

    it('with credentials the same request waits for its body: what tells the tests above apart', async () => {
      const answer = await rawExchange(t.url, {
        send: (socket) =>
          socket.write(requestHead('POST', '/event', { ...JSON_TYPE, 'Content-Length': 1000, Authorization: bearer() }) + '{"id":'),
        waitMs: 1000,
      });
      expect(answer.status).toBe(0);
    });

    it('a client that sends its whole 16 MB body without credentials still reads the 401, not a reset', async () => {
      const body = Buffer.alloc(SIXTEEN_MB, '[');
      const statuses = await Promise.all(
        Array.from(
          { length: 4 },
          () =>
            new Promise<number | string>((resolve) => {
              const req = httpRequest(`${t.url}/type/network-link`, {
                method: 'POST',
                agent: false,
                headers: { ...JSON_TYPE, 'Content-Length': body.length },
              });
              req.on('response', (res) => {
                res.resume();
                resolve(res.statusCode!);
              });
              req.on('error', (error) => resolve(error.message));
              req.end(body);
            }),
        ),
      );
      expect(statuses).toEqual([401, 401, 401, 401]);
    });

    it('a public route reads its body: GET /health with a JSON body still answers', async () => {
      const response = await http().get('/health').set(JSON_TYPE).send('{"any": "thing"}');
      expect(response.status).toBe(200);
    });
  });

  describe('nesting is found while parsing', () => {
    /** `depth` containers, objects and lists in turn, around a string. */
    const nested = (depth: number) => {
      let value: unknown = 'leaf';
      for (let level = depth; level >= 1; level--) value = level % 2 ? { [`k${level}`]: value } : [value];
      return value;
    };

    it('accepts a record 32 deep (itself and 31 below) and reads it back; refuses 33 with 400', async () => {
      const deep = { id: `deep-${kind}`, name: 'deep', extra: nested(31) };
      expect((await http().post('/type/network-link').set('Authorization', basic()).send(deep)).status).toBe(201);
      const read = await http().get(`/type/network-link/deep-${kind}`).set('Authorization', basic());
      expect(read.body).toEqual([deep]);
      const tooDeep = await http()
        .post('/type/network-link')
        .set('Authorization', basic())
        .send({ id: 'deeper', name: 'x', extra: nested(32) });
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body).toEqual([{ status: 'Bad Request', code: 400, error: true, message: 'body is nested deeper than 32 levels' }]);
    });

    it('a refused body that had arrived whole keeps the connection: nothing is left unread', async () => {
      const body = JSON.stringify({ id: `whole-${kind}`, extra: nested(33) });
      const answer = await rawExchange(t.url, {
        send: (socket) =>
          socket.write(requestHead('POST', '/event', { ...JSON_TYPE, Authorization: bearer(), 'Content-Length': body.length }) + body),
        firstAnswer: true,
      });
      expect(answer.status).toBe(400);
      expect(answer.body[0].message).toBe('body is nested deeper than 32 levels');
      expect(answer.headers.connection).toBe('keep-alive');
    });

    it('refuses 16 MB of brackets at the 33rd, before the rest has arrived', async () => {
      const answer = await partialBody('POST', '/event', { Authorization: bearer() }, '['.repeat(64 * 1024));
      expect(answer.status).toBe(400);
      expect(answer.body[0].message).toBe('body is nested deeper than 32 levels');
      expect(answer.headers.connection).toBe('close');
    });

    it('brackets inside strings are text, not nesting', async () => {
      const record = { id: `brackets-${kind}`, name: '[[[[{{{{'.repeat(100), note: '\\"[['.repeat(50) };
      expect((await http().post('/type/network-link').set('Authorization', basic()).send(record)).status).toBe(201);
      expect((await http().get(`/type/network-link/${record.id}`).set('Authorization', basic())).body).toEqual([record]);
    });
  });

  describe('text both databases store alike', () => {
    const post = (body: string) => http().post('/event').set('Authorization', bearer()).set(JSON_TYPE).send(body);

    it('refuses a batch of ids with lone surrogates, stores none of it, and keeps X\\ufffd its own record', async () => {
      const response = await post('[{"id":"X\\ud800"},{"id":"X\\udbff"},{"id":"X\\udc00"},{"id":"X\\ufffd"}]');
      expect(response.status).toBe(400);
      expect(response.body[0].message).toBe('body contains a string holding a lone UTF-16 surrogate');
      expect((await http().get('/event/X%EF%BF%BD').set('Authorization', bearer())).status).toBe(404);
      expect((await post('{"id":"X\\ufffd","n":1}')).status).toBe(201);
      const read = await http().get('/event/X%EF%BF%BD').set('Authorization', bearer());
      expect(read.body).toEqual([{ id: 'X\ufffd', n: 1 }]);
      // Stored as sent, its escape and all (docs/writes-and-merge.md).
      expect(read.text).toBe('[{"id":"X\\ufffd","n":1}]');
    });

    it.each([
      '{"id":"s1","v":"a\\udfff"}',
      '{"id":"s2","deep":{"list":["\\ud83d"]}}',
      '{"id":"s3","k\\udc00":1}',
      '[{"id":"ok"},{"id":"s4","x":"\\ud800\\ud800"}]',
    ])('refuses a lone surrogate anywhere: %s', async (body) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body[0]).toMatchObject({ code: 400, error: true });
    });

    it('a lone surrogate cannot come through the path either: it is not UTF-8', async () => {
      const response = await http().get('/event/X%ED%A0%80').set('Authorization', bearer());
      expect(response.status).toBe(400);
      expect(response.body[0]).toMatchObject({ code: 400, error: true });
    });

    it.each(['{"id":"n1","a\\u0000":1}', '{"id":"n2","deep":[{"\\u0000":true}]}'])('refuses a key holding NUL: %s', async (body) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body[0].message).toBe('body contains a key holding NUL (\\u0000)');
    });

    it('stores NUL inside a value and returns it byte for byte', async () => {
      const text = `{"id":"nul-value-${kind}","v":"a\\u0000b","list":["\\u0000"]}`;
      expect((await post(text)).status).toBe(201);
      const read = await http().get(`/event/nul-value-${kind}`).set('Authorization', bearer());
      expect(read.status).toBe(200);
      expect(read.text).toBe(`[${text}]`);
    });
  });

  describe('ids', () => {
    const create = (record: unknown, path = '/type/network-link') =>
      http()
        .post(path)
        .set('Authorization', basic())
        .send(record as object);

    it('counts code points: 256 emoji is a valid id, 257 is not', async () => {
      const id = '😀'.repeat(256);
      expect((await create({ id, name: 'emoji' })).status).toBe(201);
      const read = await http()
        .get(`/type/network-link/${encodeURIComponent(id)}`)
        .set('Authorization', basic());
      expect(read.body).toEqual([{ id, name: 'emoji' }]);
      const tooLong = await create({ id: `${id}😀`, name: 'emoji' });
      expect(tooLong.status).toBe(406);
      expect(tooLong.body[0].message).toEqual({ id: 'must be at most 256 characters' });
    });

    it('refuses "id": null: an id that is not a string, not one to generate', async () => {
      const response = await create({ id: null, name: 'null id' });
      expect(response.status).toBe(406);
      expect(response.body[0].message).toEqual({ id: 'must be a string' });
    });

    it.each(['.', '..'])('refuses the id %j in a body and in a path', async (id) => {
      const inBody = await create({ id, name: 'dots' });
      expect(inBody.status).toBe(406);
      expect(inBody.body[0].message).toEqual({ id: 'must not be "." or ".."' });
      const inPath = await http()
        .get(`/type/network-link/${id.replace(/\./g, '%2E')}`)
        .set('Authorization', basic());
      expect(inPath.status).toBe(406);
      expect(inPath.body[0].message).toEqual({ id: 'must not be "." or ".."' });
    });

    it.each(['GET', 'DELETE', 'PUT', 'POST'])('%s /type/network-link/%00 answers 406 {"id": ...}', async (method) => {
      const client = http();
      const response = await client[method.toLowerCase() as 'get'](`/type/network-link/%00`)
        .set('Authorization', basic())
        .send(method === 'PUT' || method === 'POST' ? { name: 'nul' } : undefined);
      expect(response.status).toBe(406);
      expect(response.body).toEqual([
        { status: 'Not Acceptable', code: 406, error: true, message: { id: 'must not contain control characters' } },
      ]);
    });

    it('two different ids always name two records', async () => {
      const ids = [
        'case',
        'Case',
        'caf\u00e9',
        'cafe\u0301',
        'space',
        'space ',
        ' space',
        'X\ufffd',
        'X\ufffd\ufffd',
        '😀',
        '\u{1F600}\u200d',
      ];
      const created = await create(ids.map((id, n) => ({ id: `${id}-${kind}`, name: `n${n}` })));
      expect(created.status).toBe(201);
      for (const [n, id] of ids.entries()) {
        const read = await http()
          .get(`/type/network-link/${encodeURIComponent(`${id}-${kind}`)}`)
          .set('Authorization', basic());
        expect(read.body).toEqual([{ id: `${id}-${kind}`, name: `n${n}` }]);
      }
    });
  });
});
