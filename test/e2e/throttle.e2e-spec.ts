import { DataSource } from 'typeorm';
import { setUserPassword } from '../../apps/inventory/src/database/users';
import { captureLog, CapturedLog } from '../support/captured-log';
import { exchange, Exchange } from '../support/http-exchange';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/**
 * README "Throttling": after 5 failed authentications within a minute for one client address
 * (or, with Basic, one user), attempts answer 429 with Retry-After without a password check,
 * and other users' logins are not slowed by a flood of guesses. Client addresses are loopback
 * aliases (any 127.x.y.z reaches the server on Linux). Every scrypt call is counted.
 */

// The module object itself (password-hash.ts calls `scrypt` on it), not an import's read-only copy.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeCrypto: typeof import('node:crypto') = require('node:crypto');

const TOO_MANY = {
  status: 'Too Many Requests',
  code: 429,
  error: true,
  message: expect.stringMatching(/^Too many failed authentication attempts; retry in \d+ s$/),
};

describe.each(databaseKinds())('throttled authentication failures (%s)', (kind) => {
  let t: TestApp;
  let log: CapturedLog;
  let scrypt: jest.SpyInstance;
  beforeAll(async () => {
    log = captureLog();
    // The defaults a user gets: 5 failures a minute (createTestApp raises the limit for other suites).
    t = await createTestApp(kind, { log: log.logger, env: { INVENTORY_AUTH_FAILURE_LIMIT: '5', INVENTORY_AUTH_FAILURE_WINDOW: '1m' } });
    // A user whose password only the flood test checks: its login cannot come from the cache.
    await setUserPassword(t.app.get(DataSource), 'frank', 'franks-password');
    scrypt = jest.spyOn(nodeCrypto, 'scrypt');
  });
  afterAll(async () => {
    scrypt?.mockRestore();
    await t?.close();
  });

  const get = (path: string, authorization: string, from: string, headers: Record<string, string> = {}) =>
    exchange(t.url, 'GET', path, { headers: { Authorization: authorization, ...headers }, localAddress: from });

  function expect429(answer: Exchange): void {
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 429, body: [TOO_MANY] });
    const retryAfter = Number(answer.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(answer.body[0].message).toBe(`Too many failed authentication attempts; retry in ${retryAfter} s`);
  }

  it('answers 429 with Retry-After after 5 wrong passwords from one address, without running scrypt', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/type/network-link', basic('mallory', `guess-${i}`), '127.0.0.2')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    scrypt.mockClear();
    // Another user from the same address: the address is what is throttled.
    const refused = await Promise.all(
      [basic('mallory', 'guess-5'), basic('admin', 'guess-6'), basic()].map((authorization) =>
        get('/type/network-link', authorization, '127.0.0.2'),
      ),
    );
    for (const answer of refused) expect429(answer);
    expect(scrypt).not.toHaveBeenCalled();
    // The 429 carries what every answer carries.
    expect(refused[0].headers['x-content-type-options']).toBe('nosniff');
    expect(refused[0].headers['x-request-id']).toBeDefined();
  });

  it('throttles one user guessed at from many addresses, and leaves other users of those addresses alone', async () => {
    for (let i = 0; i < 5; i++) expect((await get('/type/network-link', basic('bob', `guess-${i}`), `127.0.1.${i + 1}`)).status).toBe(401);
    scrypt.mockClear();
    expect429(await get('/type/network-link', basic('bob', 'guess-5'), '127.0.1.9'));
    expect(scrypt).not.toHaveBeenCalled();
    expect((await get('/type/network-link', basic('carol', 'guess'), '127.0.1.1')).status).toBe(401);
    expect((await get('/type/network-link', basic(), '127.0.1.2')).status).toBe(200);
  });

  it('counts guesses sent together: of 20 at once from one address, 5 are checked and 15 refused', async () => {
    scrypt.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get('/type/network-link', basic('dave', `guess-${i}`), '127.0.2.1')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(scrypt).toHaveBeenCalledTimes(5);
  });

  it('does not slow a correct login of another user from another address during a flood of guesses', async () => {
    let flooding = true;
    const floodStatuses: number[] = [];
    const flood = Array.from({ length: 20 }, async (_, client) => {
      while (flooding)
        floodStatuses.push(
          (await get('/type/network-link', basic('intruder', `guess-${client}-${floodStatuses.length}`), '127.0.3.1')).status,
        );
    });
    // Long enough for the five checked guesses and a stream of refusals.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    scrypt.mockClear();
    const login = await get('/type/network-link', basic('frank', 'franks-password'), '127.0.3.2');
    flooding = false;
    await Promise.all(flood);
    expect(login.status).toBe(200);
    // It ran its password check, and was the only one to.
    expect(scrypt).toHaveBeenCalledTimes(1);
    // Before throttling, this login waited 1.39 s behind the guesses' scrypt (README "Throttling").
    expect(login.ms).toBeLessThan(600);
    expect(floodStatuses.filter((status) => status === 401)).toHaveLength(5);
    expect(floodStatuses.filter((status) => status === 429).length).toBeGreaterThan(20);
  });

  it('counts bad tokens per address too; a token verified before still passes, a new one waits', async () => {
    const verified = bearer({ sub: 'verified-before' });
    expect((await get('/event', verified, '127.0.4.1')).status).toBe(404);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/event', `Bearer forged.token.${i}`, '127.0.4.1')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect429(await get('/event', 'Bearer forged.token.5', '127.0.4.1'));
    expect429(await get('/event', bearer({ sub: 'new-token' }), '127.0.4.1'));
    expect((await get('/event', verified, '127.0.4.1')).status).toBe(404);
    expect((await get('/event', bearer({ sub: 'elsewhere' }), '127.0.4.2')).status).toBe(404);
  });

  it('never counts requests without credentials (a browser asks without them first)', async () => {
    for (let i = 0; i < 8; i++) {
      const answer = await exchange(t.url, 'GET', '/type/network-link', { localAddress: '127.0.5.1' });
      expect(answer.status).toBe(401);
    }
    expect((await get('/type/network-link', basic(), '127.0.5.1')).status).toBe(200);
  });

  it('logs each failure with user and address, never the password, and once when throttling starts', async () => {
    for (let i = 0; i < 6; i++)
      await get('/type/network-link', basic('erin', `Secret-Guess-${i}`), '127.0.6.1', { 'X-Request-Id': `erin-${i}` });
    const lines = log.lines().filter((line) => line.user === 'erin' || String(line.reqId).startsWith('erin-'));
    expect(lines.filter((line) => line.msg === 'authentication failed')).toEqual(
      [0, 1, 2, 3, 4].map((i) =>
        expect.objectContaining({
          level: 'warn',
          context: 'Auth',
          reqId: `erin-${i}`,
          scheme: 'basic',
          user: 'erin',
          address: '127.0.6.1',
        }),
      ),
    );
    const throttled = lines.filter((line) => String(line.msg).startsWith('authentication throttled'));
    expect(throttled).toEqual([
      expect.objectContaining({ level: 'warn', reqId: 'erin-4', throttled: 'address:127.0.6.1', retryAfterS: 60 }),
      expect.objectContaining({ level: 'warn', reqId: 'erin-4', throttled: 'user:erin', retryAfterS: 60 }),
    ]);
    expect(log.text()).not.toContain('Secret-Guess');
  });
});

describe.each(databaseKinds())('the client address behind a proxy (%s)', (kind) => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    const env = { INVENTORY_AUTH_FAILURE_LIMIT: '2' };
    direct = await createTestApp(kind, { env });
    proxied = await createTestApp(kind, { env: { ...env, INVENTORY_TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  const guess = (t: TestApp, forwardedFor: string) =>
    exchange(t.url, 'GET', '/event', {
      headers: { Authorization: 'Bearer forged', 'X-Forwarded-For': forwardedFor },
      localAddress: '127.0.7.1',
    });

  it('ignores X-Forwarded-For by default: a client cannot name itself out of the throttle', async () => {
    expect((await guess(direct, '198.51.100.1')).status).toBe(401);
    expect((await guess(direct, '198.51.100.2')).status).toBe(401);
    expect((await guess(direct, '198.51.100.3')).status).toBe(429);
  });

  it('with INVENTORY_TRUST_PROXY, throttles the client the trusted proxy names, not the proxy', async () => {
    expect((await guess(proxied, '198.51.100.1')).status).toBe(401);
    expect((await guess(proxied, '198.51.100.1')).status).toBe(401);
    expect((await guess(proxied, '198.51.100.1')).status).toBe(429);
    expect((await guess(proxied, '198.51.100.2')).status).toBe(401);
  });
});
