import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config';

describe('loadConfig', () => {
  it('gives the contract defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      database: { type: 'sqlite', path: './data/inventory.sqlite' },
      jwt: { ttlSeconds: 900 },
      admin: { username: 'admin' },
      demoData: true,
      bodyLimitBytes: 16 * 1024 * 1024,
      logLevel: 'info',
    });
    expect(config.jwt.secret).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/inv',
      INVENTORY_JWT_SECRET: 's'.repeat(32),
      INVENTORY_JWT_ISSUER: 'iss',
      INVENTORY_JWT_AUDIENCE: 'aud',
      INVENTORY_JWT_TTL: '1h',
      INVENTORY_JWT_PREFIX: 'JWT',
      INVENTORY_ADMIN_USER: 'root',
      INVENTORY_ADMIN_PASSWORD: 'pw',
      INVENTORY_DEMO_DATA: 'false',
      INVENTORY_BODY_LIMIT: '500kb',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      database: { type: 'postgres', url: 'postgres://u:p@db:5432/inv' },
      jwt: { secret: 's'.repeat(32), issuer: 'iss', audience: 'aud', ttlSeconds: 3600, prefix: 'JWT' },
      admin: { username: 'root', password: 'pw' },
      demoData: false,
      bodyLimitBytes: 500 * 1024,
      logLevel: 'debug',
    });
  });

  it('gives a query 10 s by default, and reads INVENTORY_QUERY_TIMEOUT like the other durations', () => {
    expect(loadConfig({}).queryTimeoutMs).toBe(10_000);
    expect(loadConfig({ INVENTORY_QUERY_TIMEOUT: '30' }).queryTimeoutMs).toBe(30_000);
    expect(loadConfig({ INVENTORY_QUERY_TIMEOUT: '2m' }).queryTimeoutMs).toBe(120_000);
    for (const bad of ['0', 'soon', '1.5s', '-1s'])
      expect(() => loadConfig({ INVENTORY_QUERY_TIMEOUT: bad })).toThrow(/^INVENTORY_QUERY_TIMEOUT: /);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['INVENTORY_JWT_SECRET', 'short'],
    ['INVENTORY_JWT_PUBLIC_KEY', '/no/such/key.pem'],
    ['INVENTORY_JWT_TTL', '15 minutes'],
    ['INVENTORY_JWT_PREFIX', 'two words'],
    ['INVENTORY_DEMO_DATA', 'maybe'],
    ['INVENTORY_BODY_LIMIT', 'big'],
    ['LOG_LEVEL', 'loud'],
  ])('stops on %s=%j with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });

  describe('INVENTORY_JWT_PUBLIC_KEY', () => {
    let keyDir: string;
    beforeAll(() => {
      keyDir = mkdtempSync(join(tmpdir(), 'inventory-config-key-'));
    });
    afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

    function keyFile(name: string, pem: string): string {
      const path = join(keyDir, name);
      writeFileSync(path, pem);
      return path;
    }
    const ecPublicPem = (namedCurve: string) =>
      generateKeyPairSync('ec', { namedCurve }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

    it('takes an RSA key and a P-256 EC key', () => {
      const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
      for (const [name, pem] of [
        ['rsa.pem', rsaPem],
        ['p256.pem', ecPublicPem('prime256v1')],
      ]) {
        const path = keyFile(name, pem);
        expect(loadConfig({ INVENTORY_JWT_PUBLIC_KEY: path }).jwt).toMatchObject({ publicKey: pem, publicKeyPath: path });
      }
    });

    // ES256 verifies with P-256 only: a service started with another curve would refuse every token.
    it.each(['secp384r1', 'secp521r1', 'secp256k1'])('stops on an EC key on %s, naming the curve ES256 needs', (curve) => {
      const path = keyFile(`${curve}.pem`, ecPublicPem(curve));
      expect(() => loadConfig({ INVENTORY_JWT_PUBLIC_KEY: path })).toThrow(
        new RegExp(`^INVENTORY_JWT_PUBLIC_KEY: [^\\n]*${curve}[^\\n]*P-256 \\(prime256v1\\)$`),
      );
    });

    it('stops on a file that is not a public key in PEM form', () => {
      const path = keyFile('not-a-key.pem', 'hello');
      expect(() => loadConfig({ INVENTORY_JWT_PUBLIC_KEY: path })).toThrow(
        /^INVENTORY_JWT_PUBLIC_KEY: .* is not an RSA or EC public key in PEM form$/,
      );
    });
  });

  describe('INVENTORY_REQUEST_TIMEOUT and INVENTORY_MAX_CONNECTIONS', () => {
    it('default to 30 s and 10,000 connections', () => {
      expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, maxConnections: 10_000 });
    });

    it.each([
      ['45', 45_000],
      ['2s', 2_000],
      ['1m', 60_000],
    ])('reads a request timeout of %j as %d ms', (value, ms) => {
      expect(loadConfig({ INVENTORY_REQUEST_TIMEOUT: value }).requestTimeoutMs).toBe(ms);
    });

    it('reads the connection cap', () => {
      expect(loadConfig({ INVENTORY_MAX_CONNECTIONS: '250' }).maxConnections).toBe(250);
    });

    it.each([
      ['INVENTORY_REQUEST_TIMEOUT', '0'],
      ['INVENTORY_REQUEST_TIMEOUT', 'soon'],
      ['INVENTORY_REQUEST_TIMEOUT', '-5s'],
      ['INVENTORY_MAX_CONNECTIONS', '0'],
      ['INVENTORY_MAX_CONNECTIONS', 'many'],
      ['INVENTORY_MAX_CONNECTIONS', '1.5'],
    ])('stops on %s=%j with one line naming the variable', (name, value) => {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: [^\\n]+$`));
    });
  });

  describe('INVENTORY_DATABASE_RETRY', () => {
    it('waits 30 s for the database by default', () => {
      expect(loadConfig({}).databaseRetryMs).toBe(30_000);
    });

    it.each([
      ['0', 0],
      ['45', 45_000],
      ['45s', 45_000],
      ['2m', 120_000],
      ['500ms', 500],
      [' 10 S ', 10_000],
    ])('reads %j as %d ms', (value, ms) => {
      expect(loadConfig({ INVENTORY_DATABASE_RETRY: value }).databaseRetryMs).toBe(ms);
    });

    it.each(['soon', '-5s', '1.5s', '30 seconds', '2h', '1441m'])('stops on %j with one line naming the variable', (value) => {
      expect(() => loadConfig({ INVENTORY_DATABASE_RETRY: value })).toThrow(/^INVENTORY_DATABASE_RETRY: "[^\n]*" is not a duration/);
    });
  });
  describe('logs, metrics, CORS, proxies and throttling', () => {
    it('default to JSON or pretty by terminal, no access log, metrics on, no CORS, no proxy, 5 failures a minute', () => {
      expect(loadConfig({})).toMatchObject({
        logFormat: 'auto',
        accessLog: false,
        metrics: true,
        corsOrigins: [],
        trustProxy: false,
        authThrottle: { limit: 5, windowMs: 60_000 },
      });
    });

    it('reads each of them', () => {
      expect(
        loadConfig({
          LOG_FORMAT: 'Pretty',
          INVENTORY_ACCESS_LOG: 'true',
          INVENTORY_METRICS: 'off',
          INVENTORY_CORS_ORIGINS: ' https://App.Example , http://localhost:3000/,https://b.example:443',
          INVENTORY_TRUST_PROXY: '10.0.0.0/8, loopback,::1',
          INVENTORY_AUTH_FAILURE_LIMIT: '10',
          INVENTORY_AUTH_FAILURE_WINDOW: '15m',
        }),
      ).toMatchObject({
        logFormat: 'pretty',
        accessLog: true,
        metrics: false,
        // As browsers send them in Origin: lower-case host, no default port, no slash.
        corsOrigins: ['https://app.example', 'http://localhost:3000', 'https://b.example'],
        trustProxy: ['10.0.0.0/8', 'loopback', '::1'],
        authThrottle: { limit: 10, windowMs: 900_000 },
      });
    });

    it.each([
      ['*', ['*']],
      ['', []],
    ])('reads INVENTORY_CORS_ORIGINS=%j', (value, origins) => {
      expect(loadConfig({ INVENTORY_CORS_ORIGINS: value }).corsOrigins).toEqual(origins);
    });

    it.each([
      ['true', true],
      ['false', false],
      ['2', 2],
    ])('reads INVENTORY_TRUST_PROXY=%j', (value, trust) => {
      expect(loadConfig({ INVENTORY_TRUST_PROXY: value }).trustProxy).toEqual(trust);
    });

    it.each([
      ['LOG_FORMAT', 'xml'],
      ['INVENTORY_ACCESS_LOG', 'sometimes'],
      ['INVENTORY_METRICS', 'maybe'],
      ['INVENTORY_CORS_ORIGINS', 'https://a.example/app'],
      ['INVENTORY_CORS_ORIGINS', 'https://a.example,a.example'],
      ['INVENTORY_CORS_ORIGINS', 'ftp://a.example'],
      ['INVENTORY_CORS_ORIGINS', 'https://user:pw@a.example'],
      ['INVENTORY_TRUST_PROXY', '10.0.0.0/33'],
      ['INVENTORY_TRUST_PROXY', 'proxy.example'],
      ['INVENTORY_TRUST_PROXY', '1000'],
      ['INVENTORY_AUTH_FAILURE_LIMIT', '0'],
      ['INVENTORY_AUTH_FAILURE_LIMIT', 'many'],
      ['INVENTORY_AUTH_FAILURE_WINDOW', '0'],
      ['INVENTORY_AUTH_FAILURE_WINDOW', 'soon'],
    ])('stops on %s=%j with one line naming the variable', (name, value) => {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: [^\\n]+$`));
    });
  });
});
