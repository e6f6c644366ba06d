import { once } from 'node:events';
import { createServer, connect, Server, Socket } from 'node:net';
import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestApp, TestApp } from '../support/test-app';
import { createTestDatabase, DatabaseKind, databaseKinds, TestDatabase } from '../support/test-databases';
import { bearer } from '../support/test-credentials';
import { JsonAnswer, JsonRequestOptions, sendJson } from '../support/json-http';

const send = sendJson;

/**
 * The service's life around its requests: SIGTERM lets the requests in flight finish and exits 0
 * within 10 s; when PostgreSQL goes away, /health and requests answer 503 envelopes within
 * seconds, and the service recovers by itself when the database is back.
 */

describe.each(databaseKinds())('graceful shutdown on %s', (kind) => {
  let database: TestDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database?.drop();
  });

  it('SIGTERM lets every request in flight finish with its answer, then exits 0 within 10 s', async () => {
    service = await startServiceProcess(database.url);
    const { url, child } = service;
    const REQUESTS = 20;
    const BATCH = 500;
    let written = 0;
    let allWritten!: () => void;
    const everyRequestWritten = new Promise<void>((resolve) => (allWritten = resolve));
    const answers = Array.from({ length: REQUESTS }, (_, r) =>
      send(url, 'POST', '/event', {
        authorization: bearer(),
        ownConnection: true,
        body: Array.from({ length: BATCH }, (_, i) => ({ id: `r${r}-${i}`, payload: 'x'.repeat(200), n: i })),
        onSent: () => {
          if (++written === REQUESTS) allWritten();
        },
      }).then(
        (answer) => answer,
        // Node's errors come from outside Jest's realm: `instanceof Error` would be false.
        (error: { code?: string; message?: string }) => ({ failed: `${error.code ?? ''} ${error.message ?? JSON.stringify(error)}` }),
      ),
    );
    // SIGTERM as soon as the last body is on the wire: the busy server still has most requests
    // queued or running, which is what the drain must carry through (waiting here let a fast
    // server finish first, and the test then proved nothing).
    await everyRequestWritten;
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const termAt = Date.now();
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const exit = Promise.race([
      exited.then(([code, signal]) => ({ code, signal, withinTenSeconds: Date.now() - termAt < 10_000 })),
      new Promise<{ code: null; signal: null; withinTenSeconds: false }>(
        (resolve) => (timer = setTimeout(() => resolve({ code: null, signal: null, withinTenSeconds: false }), 10_000)),
      ),
    ]);
    const [outcomes, exitState] = await Promise.all([Promise.all(answers), exit]);
    clearTimeout(timer);

    const answered = outcomes.filter((outcome): outcome is JsonAnswer => 'status' in outcome);
    // One assertion over everything, so a failure shows every way the shutdown went wrong.
    expect({
      failures: outcomes.flatMap((outcome) => ('failed' in outcome ? [outcome.failed] : [])),
      statuses: answered.filter((answer) => answer.status !== 201).map((answer) => answer.status),
      incompleteBodies: answered.filter(
        (answer) =>
          !Array.isArray(answer.body) || answer.body.length !== BATCH || answer.body.some((e: { code: number }) => e.code !== 201),
      ).length,
      exit: exitState,
    }).toEqual({ failures: [], statuses: [], incompleteBodies: 0, exit: { code: 0, signal: null, withinTenSeconds: true } });
    // The load was big enough for SIGTERM to find requests still in flight.
    expect(answered.filter((answer) => answer.at > termAt).length).toBeGreaterThan(0);
  });
});

/** A TCP proxy in front of PostgreSQL, which the test can "stop" and "start" without touching the server. */
class DatabaseProxy {
  private server: Server = createServer((client) => this.accept(client));
  private readonly sockets = new Set<Socket>();
  private mode: 'forward' | 'unresponsive' = 'forward';
  port = 0;

  constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {}

  async listen(port = 0): Promise<void> {
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as { port: number }).port;
  }

  /** The database stopped: open connections are cut and new ones refused. */
  async refuse(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    this.cutAll();
    await closed;
    this.server = createServer((client) => this.accept(client));
  }

  /** The database host is there but answers nothing: open connections cut, new ones hang. */
  unresponsive(): void {
    this.mode = 'unresponsive';
    this.cutAll();
  }

  /** The database is back, on the same address. */
  async restore(): Promise<void> {
    this.mode = 'forward';
    this.cutAll();
    if (!this.server.listening) await this.listen(this.port);
  }

  async close(): Promise<void> {
    this.cutAll();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.mode === 'unresponsive') return;
    const upstream = connect(this.upstreamPort, this.upstreamHost);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}

const postgresKinds = databaseKinds().filter((kind) => kind === 'postgres');

if (postgresKinds.length === 0) {
  // TEST_DATABASE_URL unset, or TEST_DATABASES narrowed the run to SQLite.
  it('needs TEST_DATABASE_URL for the database-going-away tests', () => expect(databaseKinds()).not.toContain('postgres'));
}

// describe.each refuses an empty table, so the suites are registered one per kind.
for (const kind of postgresKinds) describe(`the database going away (${kind})`, () => databaseAwaySuite(kind));

function databaseAwaySuite(kind: DatabaseKind): void {
  let database: TestDatabase;
  let proxy: DatabaseProxy;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const direct = new URL(database.url);
    proxy = new DatabaseProxy(direct.hostname, Number(direct.port || 5432));
    await proxy.listen();
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    t = await createTestApp(kind, { database: { ...database, url: proxied.toString() } });
    expect((await send(t.url, 'POST', '/event', { authorization: bearer(), body: { id: 'kept', n: 1 } })).status).toBe(201);
  });
  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  async function expect503Within5s(method: string, path: string, options: JsonRequestOptions = {}): Promise<void> {
    const started = Date.now();
    const answer = await send(t.url, method, path, options);
    const elapsed = Date.now() - started;
    expect({ path, status: answer.status }).toEqual({ path, status: 503 });
    expect(answer.body).toEqual([expect.objectContaining({ code: 503, error: true, message: expect.anything() })]);
    expect(elapsed).toBeLessThan(5000);
  }

  async function expectRecovered(): Promise<void> {
    // Recovery needs no restart; allow the pool a few seconds to reconnect.
    const deadline = Date.now() + 10_000;
    let health = await send(t.url, 'GET', '/health');
    while (health.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      health = await send(t.url, 'GET', '/health');
    }
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect((await send(t.url, 'GET', '/health/ready')).status).toBe(200);
    const read = await send(t.url, 'GET', '/event/kept', { authorization: bearer() });
    expect(read.status).toBe(200);
    expect(read.body).toEqual([{ id: 'kept', n: 1 }]);
  }

  it('answers /health 200 and reads while the database is there', async () => {
    expect((await send(t.url, 'GET', '/health')).status).toBe(200);
    expect((await send(t.url, 'GET', '/event', { authorization: bearer() })).status).toBe(200);
  });

  it('database stopped (connections cut, new ones refused): 503 envelopes within 5 s, then recovers', async () => {
    await proxy.refuse();
    await expect503Within5s('GET', '/health');
    await expect503Within5s('GET', '/health/ready');
    // Liveness asks nothing of the database: an outage must not get every process restarted.
    expect((await send(t.url, 'GET', '/health/live')).status).toBe(200);
    await expect503Within5s('GET', '/event', { authorization: bearer() });
    await expect503Within5s('POST', '/event', { authorization: bearer(), body: { id: 'while-down' } });
    await proxy.restore();
    await expectRecovered();
  });

  it('database host unresponsive (new connections hang): 503 envelopes within 5 s, then recovers', async () => {
    proxy.unresponsive();
    await expect503Within5s('GET', '/health');
    await expect503Within5s('GET', '/health/ready');
    expect((await send(t.url, 'GET', '/health/live')).status).toBe(200);
    await expect503Within5s('GET', '/event', { authorization: bearer() });
    await proxy.restore();
    await expectRecovered();
  });
}
