import { Controller, Get, Module, Post } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { createHmac, generateKeyPairSync, KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, sign, SignOptions, verify } from 'jsonwebtoken';
import request, { Response } from 'supertest';
import { startServiceProcess } from '../support/service-process';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer, signToken, TEST_ADMIN, TEST_JWT_SECRET } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

// docs/running.md, routes.md and auth.md: who may call what, over real HTTP against the real AppModule.

// Some cases spawn real processes (the service, the CLIs), which load TypeScript first.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const UNAUTHORIZED = [{ status: 'Unauthorized', code: 401, error: true, message: 'Authentication failed' }];
type Scheme = 'Bearer' | 'Basic';

/** The contract's 401: status, the exact envelope, and a challenge naming the route's scheme. */
function expectUnauthorized(response: Response, scheme: Scheme, body = true): void {
  expect({ status: response.status, challenge: response.headers['www-authenticate'] }).toEqual({
    status: 401,
    challenge: expect.stringMatching(new RegExp(`^${scheme} realm="inventory"`)),
  });
  if (body) expect(response.body).toEqual(UNAUTHORIZED);
}

/** Proof that a credential got through: a demo record is read back. */
async function expectAcceptedOnAgentCatalog(url: string, authorization: string): Promise<void> {
  const response = await request(url).get('/catalog/agent/firewall').set('Authorization', authorization);
  expect({
    status: response.status,
    ids: Array.isArray(response.body) ? response.body.map((r: { id: string }) => r.id) : response.body,
  }).toEqual({
    status: 200,
    ids: ['firewall'],
  });
}

const now = () => Math.floor(Date.now() / 1000);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token with these claims; `iat` is kept as given (jsonwebtoken adds one only when absent). */
function tokenWith(claims: Record<string, unknown>, options: SignOptions = {}, secret: string | KeyObject = TEST_JWT_SECRET): string {
  return sign(claims, secret, { algorithm: 'HS256', ...options });
}

/** Valid in every respect unless `extra` says otherwise (`undefined` removes a claim). */
function claims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const all: Record<string, unknown> = { sub: 'tester', iat: now(), exp: now() + 300, ...extra };
  for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
  return all;
}

/** An HMAC-signed token built by hand, so no library refuses to build an attack. */
function handMadeHmacToken(alg: 'HS256' | 'HS384', payload: Record<string, unknown>, key: string): string {
  const signingInput = `${base64url({ alg, typ: 'JWT' })}.${base64url(payload)}`;
  const digest = alg === 'HS256' ? 'sha256' : 'sha384';
  return `${signingInput}.${createHmac(digest, key).update(signingInput).digest('base64url')}`;
}

function unsignedToken(payload: Record<string, unknown>): string {
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** A controller that forgot to declare its scheme: the guard must fail closed. */
@Controller('test-only/undeclared')
class UndeclaredAuthController {
  @Get()
  read() {
    return { reached: true };
  }

  @Post()
  write() {
    return { reached: true };
  }
}

@Module({ controllers: [UndeclaredAuthController] })
class UndeclaredAuthTestModule {}

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the CLIs the way `npm run` does, with only the given environment. */
function runCli(script: 'token' | 'user', args: string[], env: Record<string, string>, input = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-r',
        'tsconfig-paths/register',
        join(ROOT, `apps/inventory/src/cli/${script}.cli.ts`),
        ...args,
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', TS_NODE_TRANSPILE_ONLY: 'true', ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe.each(databaseKinds())('authentication (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { imports: [UndeclaredAuthTestModule] });
  });
  afterAll(async () => t?.close());

  describe('refused credentials answer 401 with the envelope and a challenge', () => {
    it.each([
      ['/event', 'Bearer'],
      ['/event/some-id', 'Bearer'],
      ['/catalog/agent', 'Bearer'],
      ['/catalog/agent/firewall', 'Bearer'],
      ['/type/network-link', 'Basic'],
      ['/type/network-link/p2p', 'Basic'],
      ['/auth/token', 'Basic'],
    ] as const)('no Authorization header on %s', async (path, scheme) => {
      const method = path === '/auth/token' ? 'post' : 'get';
      expectUnauthorized(await request(t.url)[method](path), scheme);
    });

    const refusedTokens: Array<[string, () => string]> = [
      ['alg none (unsigned)', () => unsignedToken(claims())],
      ['alg none with a signature-looking tail', () => `${unsignedToken(claims())}${'A'.repeat(43)}`],
      ['HS384 signed with the right secret', () => tokenWith(claims(), { algorithm: 'HS384' })],
      ['HS384 built by hand with the right secret', () => handMadeHmacToken('HS384', claims(), TEST_JWT_SECRET)],
      ['RS256 (algorithm switching in HS256 mode)', () => sign(claims(), rsa.privateKey, { algorithm: 'RS256' })],
      ['expired 120 s ago, beyond the 30 s skew', () => tokenWith(claims({ iat: now() - 600, exp: now() - 120 }))],
      ['not valid before +120 s', () => tokenWith(claims({ nbf: now() + 120 }))],
      ['without exp', () => tokenWith(claims({ exp: undefined }))],
      ['with a non-numeric exp', () => handMadeHmacToken('HS256', claims({ exp: String(now() + 300) }), TEST_JWT_SECRET)],
      ['issued 120 s in the future', () => tokenWith(claims({ iat: now() + 120 }))],
      ['signed with a wrong secret', () => tokenWith(claims(), {}, 'a-wrong-secret-that-is-also-long-enough-for-hs256')],
      [
        'with a tampered payload',
        () => {
          const [header, , signature] = tokenWith(claims()).split('.');
          return `${header}.${base64url(claims({ sub: 'mallory', exp: now() + 99_999 }))}.${signature}`;
        },
      ],
      ['garbage', () => 'this-is.not-a.jwt'],
      ['empty', () => ''],
    ];

    it.each(refusedTokens)('Bearer token %s on /event and /catalog/agent', async (_name, token) => {
      for (const path of ['/event', '/catalog/agent']) {
        expectUnauthorized(await request(t.url).get(path).set('Authorization', `Bearer ${token()}`), 'Bearer');
      }
    });

    it.each([
      ['wrong password', basic(TEST_ADMIN.username, 'not-the-password')],
      ['unknown user', basic('nobody-by-this-name', TEST_ADMIN.password)],
      ['empty password', basic(TEST_ADMIN.username, '')],
      ['not base64 at all', 'Basic %%%not-base64%%%'],
    ])('Basic with %s on /type/network-link', async (_name, authorization) => {
      expectUnauthorized(await request(t.url).get('/type/network-link').set('Authorization', authorization), 'Basic');
    });

    it('a valid JWT on the Basic family is refused', async () => {
      expectUnauthorized(await request(t.url).get('/type/network-link').set('Authorization', bearer()), 'Basic');
    });

    it('valid Basic credentials on the JWT families are refused', async () => {
      expectUnauthorized(await request(t.url).get('/event').set('Authorization', basic()), 'Bearer');
      expectUnauthorized(await request(t.url).get('/catalog/agent').set('Authorization', basic()), 'Bearer');
    });

    it('an unknown scheme word is refused', async () => {
      expectUnauthorized(await request(t.url).get('/event').set('Authorization', `JWT ${signToken()}`), 'Bearer');
    });

    it('a refused write changes nothing', async () => {
      const forged = tokenWith(claims(), {}, 'a-wrong-secret-that-is-also-long-enough-for-hs256');
      const write = await request(t.url).post('/event').set('Authorization', `Bearer ${forged}`).send({ id: 'forged-event' });
      expectUnauthorized(write, 'Bearer');
      const read = await request(t.url).get('/event/forged-event').set('Authorization', bearer());
      expect(read.status).toBe(404);
    });
  });

  describe('accepted credentials', () => {
    it('a valid bearer token creates and reads an event', async () => {
      const created = await request(t.url).post('/event').set('Authorization', bearer()).send({ id: 'auth-e2e-event', n: 1 });
      expect(created.status).toBe(201);
      const read = await request(t.url).get('/event/auth-e2e-event').set('Authorization', bearer());
      expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: [{ id: 'auth-e2e-event', n: 1 }] });
    });

    it('a valid bearer token on a missing event gets 404, not 401', async () => {
      const read = await request(t.url).get('/event/no-such-event').set('Authorization', bearer());
      expect(read.status).toBe(404);
    });

    it.each<[string, () => string]>([
      ['expired 10 s ago (within the skew)', () => tokenWith(claims({ iat: now() - 600, exp: now() - 10 }))],
      ['not valid before +10 s (within the skew)', () => tokenWith(claims({ nbf: now() + 10 }))],
      ['issued 10 s in the future (within the skew)', () => tokenWith(claims({ iat: now() + 10 }))],
      ["with only the original's claims (iat, exp, nbf)", () => tokenWith({ iat: now(), nbf: now(), exp: now() + 60 })],
      ['scheme word in lower case', () => signToken()],
    ])('Bearer token %s', async (name, token) => {
      const scheme = name.startsWith('scheme word') ? 'bearer' : 'Bearer';
      await expectAcceptedOnAgentCatalog(t.url, `${scheme} ${token()}`);
    });

    it('Basic credentials read the network link types', async () => {
      const response = await request(t.url).get('/type/network-link').set('Authorization', basic());
      expect({ status: response.status, ids: response.body.map((r: { id: string }) => r.id).sort() }).toEqual({
        status: 200,
        ids: ['p2p', 'slice'],
      });
    });

    it('POST /auth/token trades Basic credentials for a working JWT', async () => {
      const response = await request(t.url).post('/auth/token').set('Authorization', basic());
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
      const payload = verify(response.body.access_token, TEST_JWT_SECRET, { algorithms: ['HS256'] }) as Record<string, number | string>;
      expect(payload.sub).toBe(TEST_ADMIN.username);
      expect(Number(payload.exp) - Number(payload.iat)).toBe(900);
      const read = await request(t.url).get('/event/auth-e2e-token-check').set('Authorization', `Bearer ${response.body.access_token}`);
      expect(read.status).toBe(404);
      await expectAcceptedOnAgentCatalog(t.url, `Bearer ${response.body.access_token}`);
    });

    it('POST /auth/token with a bearer token instead of Basic is refused', async () => {
      expectUnauthorized(await request(t.url).post('/auth/token').set('Authorization', bearer()), 'Basic');
    });

    it('/health, the docs and the OpenAPI document need no credentials', async () => {
      const health = await request(t.url).get('/health');
      expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: 'ok' } });
      const document = await request(t.url).get('/api/doc/swagger.json');
      expect(document.status).toBe(200);
      expect(document.body.openapi).toMatch(/^3\./);
      const ui = await request(t.url).get('/api/doc');
      expect(ui.status).toBe(200);
    });
  });

  describe('every route is protected unless public', () => {
    it('a controller without @AuthScheme or @Public fails closed', async () => {
      expectUnauthorized(await request(t.url).get('/test-only/undeclared'), 'Bearer');
      // Even with credentials of either kind: no declared scheme means nothing can pass.
      expectUnauthorized(await request(t.url).get('/test-only/undeclared').set('Authorization', bearer()), 'Bearer');
      expectUnauthorized(await request(t.url).post('/test-only/undeclared').set('Authorization', basic()), 'Bearer');
    });

    it('every operation of the OpenAPI document, except the health probes, the metrics and the docs, answers 401 without credentials', async () => {
      const document = await request(t.url).get('/api/doc/swagger.json');
      expect(document.status).toBe(200);
      const checked: string[] = [];
      type Operation = { parameters?: Array<{ in: string; name: string; required?: boolean }> };
      for (const [path, operations] of Object.entries(document.body.paths as Record<string, Record<string, Operation>>)) {
        // Public by design (README "Probes", "Metrics"); metrics.e2e-spec.ts checks /metrics says so.
        if (path === '/health' || path.startsWith('/health/') || path === '/metrics' || path === '/api/doc' || path.startsWith('/api/doc/'))
          continue;
        for (const [method, operation] of Object.entries(operations)) {
          const concrete = new Set([path.replace(/\{[^}]+\}/g, 'sample-id')]);
          // An optional path parameter ({/:id}): the route without it exists too.
          const optional = (operation.parameters ?? []).filter((p) => p.in === 'path' && p.required === false);
          for (const parameter of optional) concrete.add(path.replace(`/{${parameter.name}}`, ''));
          for (const url of concrete) {
            const response = await (request(t.url) as unknown as Record<string, (path: string) => request.Test>)[method](url);
            const scheme: Scheme = url.startsWith('/type/network-link') || url.startsWith('/auth/token') ? 'Basic' : 'Bearer';
            try {
              expectUnauthorized(response, scheme, method !== 'head');
            } catch (error) {
              throw new Error(`${method.toUpperCase()} ${url}: ${(error as Error).message}`);
            }
            checked.push(`${method.toUpperCase()} ${url}`);
          }
        }
      }
      // The document really listed the routes (the test is not vacuous).
      expect(checked).toEqual(
        expect.arrayContaining([
          'GET /event',
          'POST /event/sample-id',
          'PUT /type/network-link',
          'DELETE /catalog/agent/sample-id',
          'POST /auth/token',
          'GET /test-only/undeclared',
        ]),
      );
    });
  });

  describe('INVENTORY_JWT_PREFIX', () => {
    let prefixed: TestApp;
    beforeAll(async () => {
      prefixed = await createTestApp(kind, { env: { INVENTORY_JWT_PREFIX: 'JWT' } });
    });
    afterAll(async () => prefixed?.close());

    it('accepts the configured word and still Bearer', async () => {
      await expectAcceptedOnAgentCatalog(prefixed.url, `JWT ${signToken()}`);
      await expectAcceptedOnAgentCatalog(prefixed.url, `Bearer ${signToken()}`);
    });

    it('refuses another word, and a bad token behind the configured word', async () => {
      expectUnauthorized(await request(prefixed.url).get('/event').set('Authorization', `Token ${signToken()}`), 'Bearer');
      const forged = tokenWith(claims(), {}, 'a-wrong-secret-that-is-also-long-enough-for-hs256');
      expectUnauthorized(await request(prefixed.url).get('/event').set('Authorization', `JWT ${forged}`), 'Bearer');
    });
  });

  describe('INVENTORY_JWT_ISSUER and INVENTORY_JWT_AUDIENCE', () => {
    const issuer = 'https://issuer.example.test';
    const audience = 'inventory-service';
    let checked: TestApp;
    beforeAll(async () => {
      checked = await createTestApp(kind, { env: { INVENTORY_JWT_ISSUER: issuer, INVENTORY_JWT_AUDIENCE: audience } });
    });
    afterAll(async () => checked?.close());

    it.each<[string, Record<string, unknown>]>([
      ['without iss', { aud: audience }],
      ['with a wrong iss', { iss: 'https://evil.example.test', aud: audience }],
      ['without aud', { iss: issuer }],
      ['with a wrong aud', { iss: issuer, aud: 'another-service' }],
    ])('a token %s is refused', async (_name, extra) => {
      expectUnauthorized(
        await request(checked.url)
          .get('/event')
          .set('Authorization', `Bearer ${tokenWith(claims(extra))}`),
        'Bearer',
      );
    });

    it('a token with the right iss and aud is accepted', async () => {
      await expectAcceptedOnAgentCatalog(checked.url, `Bearer ${tokenWith(claims({ iss: issuer, aud: audience }))}`);
    });

    it('tokens it issues carry them and are accepted', async () => {
      const issued = await request(checked.url).post('/auth/token').set('Authorization', basic());
      expect(issued.status).toBe(201);
      expect(decode(issued.body.access_token)).toMatchObject({ iss: issuer, aud: audience });
      await expectAcceptedOnAgentCatalog(checked.url, `Bearer ${issued.body.access_token}`);
    });
  });

  describe('INVENTORY_JWT_PUBLIC_KEY', () => {
    let keyed: TestApp;
    let keyDir: string;
    beforeAll(async () => {
      keyDir = mkdtempSync(join(tmpdir(), 'inventory-key-'));
      const path = join(keyDir, 'issuer-public.pem');
      writeFileSync(path, rsaPublicPem);
      keyed = await createTestApp(kind, { env: { INVENTORY_JWT_PUBLIC_KEY: path } });
    });
    afterAll(async () => {
      await keyed?.close();
      rmSync(keyDir, { recursive: true, force: true });
    });

    it('does not issue tokens, since it holds no signing key: 404 with the reason', async () => {
      const response = await request(keyed.url).post('/auth/token').set('Authorization', basic());
      expect(response.status).toBe(404);
      expect(response.body[0].message).toMatch(/Token issuing is disabled/);
    });

    it("accepts RS256 tokens signed with the issuer's private key", async () => {
      await expectAcceptedOnAgentCatalog(keyed.url, `Bearer ${sign(claims(), rsa.privateKey, { algorithm: 'RS256' })}`);
    });

    it.each<[string, () => string]>([
      ['HS256 signed with the public key PEM as secret (algorithm confusion)', () => handMadeHmacToken('HS256', claims(), rsaPublicPem)],
      ['HS256 signed with the HS secret, which a public key replaces', () => signToken()],
      ['RS256 signed with another private key', () => sign(claims(), otherRsa.privateKey, { algorithm: 'RS256' })],
      ['RS256 without exp', () => sign(claims({ exp: undefined }), rsa.privateKey, { algorithm: 'RS256' })],
      ['alg none', () => unsignedToken(claims())],
    ])('refuses %s', async (_name, token) => {
      expectUnauthorized(await request(keyed.url).get('/event').set('Authorization', `Bearer ${token()}`), 'Bearer');
    });
  });

  describe('the generated JWT secret is persisted', () => {
    let database: TestDatabase;
    const apps: TestApp[] = [];
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await database?.drop();
    });

    it('a token issued before a restart still works after it, also one from `npm run token`', async () => {
      const first = await createTestApp(kind, { database, env: { INVENTORY_JWT_SECRET: '' } });
      apps.push(first);
      const issued = await request(first.url).post('/auth/token').set('Authorization', basic());
      expect(issued.status).toBe(201);
      const token: string = issued.body.access_token;
      // Signed with a generated secret, not with the one tests use by default.
      expect(() => verify(token, TEST_JWT_SECRET)).toThrow('invalid signature');
      await expectAcceptedOnAgentCatalog(first.url, `Bearer ${token}`);
      await first.close();
      apps.pop();

      const second = await createTestApp(kind, { database, env: { INVENTORY_JWT_SECRET: '' } });
      apps.push(second);
      await expectAcceptedOnAgentCatalog(second.url, `Bearer ${token}`);

      // Two apps alive in one process keep their own keys (passport's registry is process-wide).
      expectUnauthorized(await request(second.url).get('/event').set('Authorization', bearer()), 'Bearer');
      await expectAcceptedOnAgentCatalog(t.url, bearer());
      expectUnauthorized(await request(t.url).get('/event').set('Authorization', `Bearer ${token}`), 'Bearer');

      // The CLI without INVENTORY_JWT_SECRET reads the same persisted secret.
      const cli = await runCli('token', [], { DATABASE_URL: database.url });
      expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      await expectAcceptedOnAgentCatalog(second.url, `Bearer ${cli.stdout.trim()}`);
    });
  });

  describe('the generated admin password', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => database?.drop());

    it('is printed exactly once, on the start that created the user, and works', async () => {
      const first = await startServiceProcess(database.url, { INVENTORY_ADMIN_PASSWORD: '' });
      let password: string;
      try {
        // In a JSON log line the quotes are escaped.
        const printed = [...first.output().matchAll(/Created Basic user \\?"admin\\?" with password: ([A-Za-z0-9_-]+)/g)];
        expect(printed).toHaveLength(1);
        password = printed[0][1];
        expect(password).not.toBe(TEST_ADMIN.password);
        const read = await request(first.url).get('/type/network-link').set('Authorization', basic('admin', password));
        expect(read.status).toBe(200);
        expectUnauthorized(await request(first.url).get('/type/network-link').set('Authorization', basic()), 'Basic');
      } finally {
        await first.stop();
      }

      const second = await startServiceProcess(database.url, { INVENTORY_ADMIN_PASSWORD: '' });
      try {
        expect(second.output()).not.toContain('with password');
        const read = await request(second.url).get('/type/network-link').set('Authorization', basic('admin', password));
        expect(read.status).toBe(200);
      } finally {
        await second.stop();
      }
    });
  });

  describe('the CLIs', () => {
    let token: CliRun;
    let badTtl: CliRun;
    let addBob: CliRun;
    let addAndRemoveCarol: CliRun[];
    beforeAll(async () => {
      // Spawned together: each pays for loading TypeScript, not for waiting on the others.
      const env = { DATABASE_URL: t.database.url, INVENTORY_JWT_SECRET: TEST_JWT_SECRET };
      [token, badTtl, addBob, addAndRemoveCarol] = await Promise.all([
        runCli('token', ['--subject', 'cli-tester', '--ttl', '2m'], env),
        runCli('token', ['--ttl', 'forever'], env),
        runCli('user', ['add', 'bob'], env, 'bob-password\nsecond line is ignored\n'),
        (async () => [await runCli('user', ['add', 'carol'], env, 'carol-password\n'), await runCli('user', ['remove', 'carol'], env)])(),
      ]);
    });

    it('`npm run token` prints only a token, which the running service accepts', async () => {
      expect(token.code).toBe(0);
      expect(token.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      const payload = verify(token.stdout.trim(), TEST_JWT_SECRET, { algorithms: ['HS256'] }) as Record<string, unknown>;
      expect(payload).toMatchObject({ sub: 'cli-tester' });
      expect(Number(payload.exp) - Number(payload.iat)).toBe(120);
      await expectAcceptedOnAgentCatalog(t.url, `Bearer ${token.stdout.trim()}`);
    });

    it('`npm run token` with a bad --ttl fails with one line and prints no token', () => {
      expect({ code: badTtl.code, stdout: badTtl.stdout }).toEqual({ code: 1, stdout: '' });
      expect(badTtl.stderr).toMatch(/^token: --ttl: "forever" .*\n$/);
    });

    it('`npm run user -- add bob` with the password on stdin makes a Basic user', async () => {
      expect(addBob.code).toBe(0);
      expect(addBob.stdout).toBe('');
      const read = await request(t.url).get('/type/network-link').set('Authorization', basic('bob', 'bob-password'));
      expect(read.status).toBe(200);
      expectUnauthorized(
        await request(t.url).get('/type/network-link').set('Authorization', basic('bob', 'second line is ignored')),
        'Basic',
      );
    });

    it('`npm run user -- remove carol` removes the user', async () => {
      expect(addAndRemoveCarol.map((run) => run.code)).toEqual([0, 0]);
      expectUnauthorized(await request(t.url).get('/type/network-link').set('Authorization', basic('carol', 'carol-password')), 'Basic');
    });
  });
});
