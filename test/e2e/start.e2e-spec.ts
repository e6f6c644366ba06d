import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from 'jsonwebtoken';
import {
  BUILT_MAIN,
  ensureBuilt,
  ROOT,
  RUNTIME_DEPENDENCIES_ONLY,
  serviceEnv,
  START_NODE_FLAGS,
  startBuiltService,
  watchProcess,
} from '../support/built-service';
import { freePort } from '../support/service-process';
import { TEST_JWT_SECRET } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

/**
 * The start as an operator runs it: `npm start` and the CLIs run the compiled service (built at
 * install, or when a source changed) with dev dependencies unloadable, as after
 * `npm prune --omit=dev`; a start that cannot go on stops with one line naming the variable.
 */

/** A line of a stack trace: a failed start must not print one. */
const STACK_FRAME = /^\s+at /m;
/** npm needs a home for its config and cache; nothing else of the caller's environment leaks in. */
const NPM_ENV = { HOME: process.env.HOME ?? tmpdir(), NODE_OPTIONS: `--require ${RUNTIME_DEPENDENCIES_ONLY}` };

beforeAll(() => ensureBuilt(), 300_000);

/** These do not depend on the database kind: once, in the run that has SQLite (not again in `npm run test:pg`). */
const describeOnce = databaseKinds().includes('sqlite') ? describe : describe.skip;

describeOnce('production start (dist/, runtime dependencies only)', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterEach(async () => database?.drop());

  it('`npm start` serves /health from the existing build without compiling, and says where it listens', async () => {
    // Right before: a source saved since beforeAll would make `npm start` compile, which is not what this checks.
    ensureBuilt();
    const port = await freePort();
    const service = watchProcess('npm', ['start'], { env: { ...serviceEnv(database.url, port), ...NPM_ENV }, group: true });
    try {
      await service.waitForOk(`http://127.0.0.1:${port}/health`, 30_000);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
      await service.waitForOutput(new RegExp(`listening on http://127\\.0\\.0\\.1:${port}\\b`), 5000);
      expect(service.output()).not.toMatch(/compiling|Cannot find module/);
    } finally {
      await service.stop();
    }
  });

  it('`node dist/apps/inventory/src/main.js` from another directory resolves @inventory/* without tsconfig.json, and exits 0 on SIGTERM', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'inventory-cwd-'));
    const port = await freePort();
    const service = startBuiltService(serviceEnv(database.url, port), elsewhere);
    try {
      await service.waitForOk(`http://127.0.0.1:${port}/health/live`, 30_000);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect(await service.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await service.stop('SIGKILL');
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('turns pretenuring off itself when node was started without the flag, and keeps a command line that names it', () => {
    const settings = join(ROOT, 'dist', 'apps', 'inventory', 'src', 'startup', 'v8-settings.js');
    // Objects of one site that outlive scavenges: with pretenuring on, V8 traces its verdicts on the site.
    const survivors =
      'let keep = []; for (let r = 0; r < 200; r++) { for (let i = 0; i < 20000; i++) keep.push({ i, s: "x" + i }); if (keep.length > 200000) keep = keep.slice(100000); }';
    const verdicts = (...flags: string[]) => {
      const run = spawnSync(process.execPath, ['--trace-pretenuring-statistics', ...flags, '-e', survivors], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      return run.stdout.split('\n').filter((line) => line.includes('pretenuring: AllocationSite')).length;
    };
    expect(verdicts()).toBeGreaterThan(0);
    expect(verdicts('--require', settings)).toBe(0);
    expect(verdicts('--allocation-site-pretenuring', '--require', settings)).toBeGreaterThan(0);
    expect(readFileSync(BUILT_MAIN, 'utf8').match(/require\("[^"]+"\)/)?.[0]).toBe('require("./startup/v8-settings")');
  });

  it('starts with a 32 MB young generation, a bounded old one and no pretenuring, and the README gives containers the same command as `npm start`', () => {
    expect(START_NODE_FLAGS).toEqual(
      expect.arrayContaining(['--max-semi-space-size=32', '--heap-growing-percent=50', '--no-allocation-site-pretenuring']),
    );
    const start = `node ${[...START_NODE_FLAGS, 'dist/apps/inventory/src/main.js'].join(' ')}`;
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\n\s*/g, ' ');
    const containerCommands = [...readme.matchAll(/(?:as a container's command:|In a container\*\*, run) `?(node [^`\n]*?main\.js)/g)].map(
      (match) => match[1],
    );
    expect(containerCommands).toEqual([start, start]);
  });

  it('`npm run token` and `npm run user` run from the build and print only their answer', () => {
    const env = { ...serviceEnv(database.url, 0), ...NPM_ENV };
    const token = spawnSync('npm', ['run', '--silent', 'token', '--', '--subject', 'start-test'], { cwd: ROOT, env, encoding: 'utf8' });
    // Logs go to stderr; stdout is the answer alone, so `TOKEN=$(npm run --silent token)` works.
    expect({ code: token.status, stdout: token.stdout, stderr: token.stderr }).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+\n$/),
      stderr: expect.not.stringMatching(/Cannot find module|Error/),
    });
    expect(verify(token.stdout.trim(), TEST_JWT_SECRET, { algorithms: ['HS256'] })).toMatchObject({ sub: 'start-test' });
    const user = spawnSync('npm', ['run', '--silent', 'user', '--', 'add', 'dave'], {
      cwd: ROOT,
      env,
      input: 'dave-password\n',
      encoding: 'utf8',
    });
    expect({ code: user.status, stdout: user.stdout, stderr: user.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: expect.not.stringMatching(/Cannot find module|Error/),
    });
  });
});

describeOnce('a start that cannot go on', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterEach(async () => database?.drop());

  it('PORT already in use: one line naming PORT, before anything starts, exit 1', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const service = startBuiltService(serviceEnv(database.url, port));
      const { code } = await service.exited;
      expect(code).toBe(1);
      expect(service.output()).toBe(`Cannot start: PORT: ${port} is already in use on 127.0.0.1 (another process listens there)\n`);
      // It stopped before opening the database: a start that cannot serve changes nothing.
      expect(existsSync(database.url.slice('sqlite:'.length))).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('database unreachable: retries for INVENTORY_DATABASE_RETRY, then one line naming DATABASE_URL with the password masked, exit 1', async () => {
    const started = Date.now();
    const service = startBuiltService(
      serviceEnv('postgres://u:secret@127.0.0.1:1/x', await freePort(), { INVENTORY_DATABASE_RETRY: '2s' }),
    );
    const { code } = await service.exited;
    const output = service.output();
    expect(code).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(output).not.toContain('secret');
    expect(output).not.toMatch(STACK_FRAME);
    expect(output).not.toMatch(/successfully started/);
    // The wait is visible while it lasts, and the end is one line.
    expect(output).toMatch(/DATABASE_URL: postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x does not answer \(.*ECONNREFUSED.*\); retrying/);
    expect(output.trimEnd().split('\n').pop()).toMatch(
      /^Cannot start: DATABASE_URL: postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x did not answer within 2 s \(INVENTORY_DATABASE_RETRY\): .*ECONNREFUSED/,
    );
  });

  it('INVENTORY_DATABASE_RETRY=0: one attempt, then the same line at once', async () => {
    const started = Date.now();
    const service = startBuiltService(serviceEnv('postgres://u:secret@127.0.0.1:1/x', await freePort(), { INVENTORY_DATABASE_RETRY: '0' }));
    expect((await service.exited).code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(service.output()).toMatch(
      /^Cannot start: DATABASE_URL: postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x did not answer: .*ECONNREFUSED.*\n$/,
    );
  });
});

/** A port where PostgreSQL "comes up" when the test says so: a forwarder to the real server. */
class LateDatabase {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly upstream: URL,
  ) {}

  async comeUp(): Promise<void> {
    this.server = createServer((client) => {
      const server = connect(Number(this.upstream.port || 5432), this.upstream.hostname);
      for (const socket of [client, server]) {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => this.sockets.delete(socket));
      }
      client.pipe(server).pipe(client);
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
    }).listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server?.listening) await new Promise((resolve) => this.server!.close(resolve));
  }
}

for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`a database that comes up during the start (${kind})`, () => {
    let database: TestDatabase;
    let late: LateDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
      late = new LateDatabase(await freePort(), new URL(database.url));
    });
    afterAll(async () => {
      await late?.close();
      await database?.drop();
    });

    it('the start waits for it, then serves (an orchestrator starting both loses no race)', async () => {
      const url = new URL(database.url);
      url.hostname = '127.0.0.1';
      url.port = String(late.port);
      const port = await freePort();
      const service = startBuiltService(serviceEnv(url.toString(), port, { INVENTORY_DATABASE_RETRY: '30s' }));
      try {
        await service.waitForOutput(/does not answer/, 20_000);
        await late.comeUp();
        await service.waitForOk(`http://127.0.0.1:${port}/health/ready`, 30_000);
        expect(service.output()).not.toMatch(/Cannot start/);
      } finally {
        await service.stop();
      }
    });

    // The README's DATABASE_URL for a database on the same machine; a database elsewhere has no socket here.
    const local = ['127.0.0.1', 'localhost'].includes(new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost').hostname);
    (local ? it : it.skip)('serves through the Unix socket named by `?host=` (the README)', async () => {
      const url = new URL(database.url);
      const socketUrl = `postgres://${url.username}@localhost${url.pathname}?host=/var/run/postgresql`;
      const port = await freePort();
      const service = startBuiltService(serviceEnv(socketUrl, port, { INVENTORY_DATABASE_RETRY: '0' }));
      try {
        await service.waitForOk(`http://127.0.0.1:${port}/health/ready`, 30_000);
        expect(service.output()).not.toMatch(/Cannot start/);
      } finally {
        await service.stop();
      }
    });
  });
}
