import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';

/** What the HTTP layer decides before any handler runs: routes, methods, malformed URLs. */
describe('HTTP routing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
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
    const read = await request(t.url).get(`/type/network-link/${encodeURIComponent(id)}/`).set('Authorization', basic());
    expect(read.status).toBe(200);
    expect(read.body).toEqual([{ id, name: 'long' }]);
  });

  it('refuses a 257-character id in the URL with the validation answer, not a 404', async () => {
    const response = await request(t.url).put(`/type/network-link/${'x'.repeat(257)}`).set('Authorization', basic()).send({ name: 'n' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ id: 'must be at most 256 characters' });
  });
});
