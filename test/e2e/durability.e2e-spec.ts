import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';
import { bearer } from '../support/test-credentials';
import { sendJson } from '../support/json-http';

const send = (base: string, method: string, path: string, body?: unknown) =>
  sendJson(base, method, path, { body, authorization: bearer() });

/**
 * docs/writes-and-merge.md: "A 2xx answer means the write is committed: it survives the process being
 * killed right after." A real service process takes creates (singles and batches of 20, several
 * in flight at once) for a few seconds and is SIGKILLed mid-load; a new process on the same
 * database must find every id that was acknowledged with 201.
 */

const LOAD_MS = 3000;
const WORKERS = 6;
const BATCH = 20;

describe.each(databaseKinds())('durability of acknowledged creates on %s', (kind) => {
  let database: TestDatabase;
  const started: ServiceProcess[] = [];

  async function start(): Promise<ServiceProcess> {
    const service = await startServiceProcess(database.url);
    started.push(service);
    return service;
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await Promise.all(started.map((service) => service.stop('SIGKILL')));
    await database?.drop();
  });

  it('finds every id acknowledged with 201 after a SIGKILL mid-load and a restart', async () => {
    const first = await start();
    const acknowledged = new Set<string>();
    const statuses: number[] = [];
    let inFlight = 0;
    let stopping = false;

    async function worker(w: number): Promise<void> {
      for (let round = 0; !stopping; round++) {
        const prefix = `w${w}-r${round}`;
        try {
          if (round % 2 === 0) {
            const id = `${prefix}-single`;
            inFlight++;
            const answer = await send(first.url, 'POST', '/event', { id, kind: 'single', worker: w }).finally(() => inFlight--);
            statuses.push(answer.status);
            if (answer.status === 201) acknowledged.add(id);
          } else {
            const ids = Array.from({ length: BATCH }, (_, i) => `${prefix}-b${i}`);
            inFlight++;
            const answer = await send(
              first.url,
              'POST',
              '/event',
              ids.map((id) => ({ id, kind: 'batch', worker: w })),
            ).finally(() => inFlight--);
            statuses.push(answer.status);
            if (Array.isArray(answer.body)) {
              answer.body.forEach((envelope: { code: number }, i: number) => {
                if (envelope.code === 201) acknowledged.add(ids[i]);
              });
            }
          }
        } catch {
          // The connection died with the process: no answer, so nothing was acknowledged.
        }
      }
    }

    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    // SIGKILL while the workers have requests in flight (a busy test machine can starve them).
    while (inFlight < WORKERS / 2) await new Promise((resolve) => setImmediate(resolve));
    const killed = first.stop('SIGKILL');
    stopping = true;
    expect(await killed).toBeNull();
    expect(first.child.signalCode).toBe('SIGKILL');
    await Promise.all(workers);

    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    // Enough load that the kill is a meaningful test (the loop above made writes race it).
    expect(acknowledged.size).toBeGreaterThan(100);

    const second = await start();
    const found = new Set<string>();
    const ids = [...acknowledged];
    for (let start = 0; start < ids.length; start += 1000) {
      const chunk = ids.slice(start, start + 1000);
      const answer = await send(second.url, 'GET', '/event', {
        select: ['id'],
        where: { in: { target: 'id', expr: chunk } },
      });
      expect([200, 404]).toContain(answer.status);
      if (answer.status === 200) for (const record of answer.body as { id: string }[]) found.add(record.id);
    }
    const missing = ids.filter((id) => !found.has(id));
    expect(missing).toEqual([]);
    expect(found.size).toBe(acknowledged.size);
  });
});
