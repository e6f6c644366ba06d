import { once } from 'node:events';
import { connect, Socket } from 'node:net';
import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';
import { sendJson } from '../support/json-http';

/**
 * Liveness (`/health/live`: the process runs) and readiness (`/health/ready`: the database
 * answers and the process is not shutting down) beside the contract's `/health`. The database
 * going away is in lifecycle.e2e-spec.ts, with the other 503s.
 */

describe.each(databaseKinds())('probes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it.each(['/health', '/health/live', '/health/ready'])('GET %s answers 200 {"status":"ok"} without credentials', async (path) => {
    const answer = await sendJson(t.url, 'GET', path);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it.each(['/health/live', '/health/ready'])('a wrong method on %s answers 405 with Allow', async (path) => {
    const answer = await fetch(`${t.url}${path}`, { method: 'POST' });
    expect({ status: answer.status, allow: answer.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, HEAD' });
  });
});

/** Sends a POST whose body arrives only when the test says so: a request in flight that does not block the event loop. */
async function slowCreate(url: string, id: string): Promise<{ finish(): void; statusLine: Promise<string>; close(): void }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const body = JSON.stringify({ id, source: 'slow-client' });
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /event HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${bearer()}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  let received = '';
  const statusLine = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received += String(chunk);
      if (received.includes('\r\n')) resolve(received.split('\r\n')[0]);
    });
    socket.on('close', () => resolve(received.split('\r\n')[0]));
    socket.on('error', reject);
  });
  return { finish: () => socket.write(body.slice(half)), statusLine, close: () => socket.destroy() };
}

describe.each(databaseKinds())('readiness while shutting down (%s, service process)', (kind) => {
  let database: TestDatabase;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database?.drop();
  });

  it('SIGTERM with a slow request in flight: ready answers 503 at once, while live, /health and the request carry on; exit 0', async () => {
    service = await startServiceProcess(database.url, { LOG_LEVEL: 'info' });
    const { url, child } = service;
    expect((await sendJson(url, 'GET', '/health/ready')).status).toBe(200);
    const slow = await slowCreate(url, 'during-drain');
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    child.kill('SIGTERM');
    // The handler has run once it logged; from then on the service drains for one second.
    const deadline = Date.now() + 5000;
    while (!/SIGTERM: finishing requests in flight/.test(service.output()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [ready, live, health] = await Promise.all(['/health/ready', '/health/live', '/health'].map((path) => sendJson(url, 'GET', path)));
    slow.finish();

    expect({ status: ready.status, body: ready.body }).toEqual({
      status: 503,
      body: [{ status: 'Service Unavailable', code: 503, error: true, message: 'Service unavailable: shutting down' }],
    });
    expect({ live: live.status, health: health.status }).toEqual({ live: 200, health: 200 });
    // The request that was in flight when SIGTERM came still gets its answer.
    expect(await slow.statusLine).toBe('HTTP/1.1 201 Created');
    slow.close();
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
