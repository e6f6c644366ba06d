import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';
import { basic, bearer } from '../support/test-credentials';
import { sendJson } from '../support/json-http';
import { RESPONSIVE_MS } from '../support/responsiveness';

const EVENTS = 20_000;
const BRACKETS = Buffer.alloc(16 * 1024 * 1024, '[');
const MB = 1024 * 1024;

/** Resident memory of a process, in bytes (`ps` reports KiB, on Linux and macOS alike). */
function rss(pid: number): number {
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) * 1024
  );
}

/** 16 MB of `[`, sent whole; answers the status, or the error a client saw. */
function postBrackets(url: string, authorization?: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/event`, {
      method: 'POST',
      agent: false,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': BRACKETS.length,
        ...(authorization ? { Authorization: authorization } : {}),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (error) => resolve(error.message));
    req.end(BRACKETS);
  });
}

/**
 * The heaviest query the caps allow, on paths events do not index (so every event is evaluated
 * in memory): 10,000 `in` values, 90 patterns at the length and repetition caps, 16 order terms.
 */
function heaviestLegalQuery(): unknown {
  const ins = Array.from({ length: 10 }, (_, n) => ({
    in: { target: 'kind', expr: Array.from({ length: 1000 }, (_, m) => `kind-${n}-${m}`) },
  }));
  const pattern = `(?:a|aa){1,100}(?:b|bb){1,100}${'[ab]'.repeat(30)}`.slice(0, 256);
  const patterns = Array.from({ length: 90 }, (_, n) => ({ reg_exp: { target: n % 2 ? 'note' : 'detail.text', expr: pattern } }));
  const order = Array.from({ length: 16 }, (_, n) => ({ target: `detail.k${n}`, mode: n % 2 ? 'asc' : 'desc' }));
  return { where: { or: [...ins, ...patterns] }, order };
}

/**
 * Issue 11's load scenario, bounded and on loopback: four 16 MB bodies of nested brackets made
 * /health wait 8.7 s and took RSS from 427 MB to 2 GB for good. Here a real service process
 * (main.ts) runs the heaviest legal query while 16 MB bodies of brackets arrive 8 at a time,
 * with and without credentials, three times; /health and a get-by-id must answer within a
 * second all along, and the process's RSS must come back near its level within a minute.
 */
describe.each(databaseKinds())('hostile load (%s)', (kind) => {
  let database: TestDatabase;
  let service: ServiceProcess;
  const token = bearer({}, { expiresIn: 3600 });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    service = await startServiceProcess(database.url, { LOG_LEVEL: 'error' });
    const events = Array.from({ length: EVENTS }, (_, n) => ({
      id: `load-${n}`,
      source: `10.1.${n % 250}.${n % 7}`,
      timestamp: new Date(Date.UTC(2026, 10, 21) + n * 1000).toISOString(),
      kind: `kind-${n % 10}-${n % 1500}`,
      note: 'ab'.repeat(100),
      detail: { text: 'a'.repeat(150), ...Object.fromEntries(Array.from({ length: 16 }, (_, k) => [`k${k}`, (n * (k + 7)) % 101])) },
    }));
    const created = await sendJson(service.url, 'POST', '/event', { body: events, authorization: token });
    expect(created.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  it('keeps /health and a get-by-id under a second, and gives the memory back', async () => {
    const pid = service.child.pid!;
    // One warm-up round, so the baseline includes what any first request allocates for good.
    await Promise.all([postBrackets(service.url), postBrackets(service.url, basic()), postBrackets(service.url, token)]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const baseline = rss(pid);

    const waits: { health: number[]; byId: number[] } = { health: [], byId: [] };
    let peak = baseline;
    let loading = true;
    const probing = (async () => {
      while (loading) {
        let started = Date.now();
        const health = await sendJson(service.url, 'GET', '/health', { ownConnection: true });
        waits.health.push(health.status === 200 ? Date.now() - started : Infinity);
        started = Date.now();
        const byId = await sendJson(service.url, 'GET', '/event/load-4242', { authorization: token, ownConnection: true });
        waits.byId.push(byId.status === 200 && byId.body[0].id === 'load-4242' ? Date.now() - started : Infinity);
        peak = Math.max(peak, rss(pid));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const started = Date.now();
    const query = sendJson(service.url, 'GET', '/event', { body: heaviestLegalQuery(), authorization: token });
    const floods: (number | string)[] = [];
    for (let round = 0; round < 3; round++) {
      const senders = Array.from({ length: 8 }, (_, n) => postBrackets(service.url, n < 6 ? undefined : token));
      floods.push(...(await Promise.all(senders)));
    }
    const queried = await query;
    loading = false;
    await probing;
    const elapsed = Date.now() - started;

    // The query either answers or stops at its time budget: never a 5xx, never a stall.
    expect([200, 400, 404]).toContain(queried.status);
    expect(floods.filter((status) => status === 401)).toHaveLength(18);
    expect(floods.filter((status) => status === 400)).toHaveLength(6);
    expect(waits.health.length).toBeGreaterThan(3);
    expect(Math.max(...waits.health)).toBeLessThan(RESPONSIVE_MS);
    expect(Math.max(...waits.byId)).toBeLessThan(RESPONSIVE_MS);
    expect(elapsed).toBeLessThan(30_000);

    // Brackets cost what any 16 MB does: the memory comes back once the flood is over.
    const limit = Math.max(baseline * 1.5, baseline + 150 * MB);
    let settled = rss(pid);
    for (let second = 0; second < 60 && settled > limit; second++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      settled = rss(pid);
    }
    process.stdout.write(
      `hostile load (${kind}): RSS ${Math.round(baseline / MB)} MB → peak ${Math.round(peak / MB)} → ${Math.round(settled / MB)} MB; ` +
        `worst /health ${Math.max(...waits.health)} ms, get-by-id ${Math.max(...waits.byId)} ms; query ${queried.status} after ${elapsed} ms\n`,
    );
    expect(settled).toBeLessThanOrEqual(limit);
  }, 120_000);
});
