import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestDatabase, DatabaseKind, databaseKinds, TestDatabase } from '../support/test-databases';
import { basic, bearer } from '../support/test-credentials';
import { countByStatus, JsonAnswer, sendJson } from '../support/json-http';

const send = (base: string, method: string, path: string, body?: unknown, authorization = bearer()) =>
  sendJson(base, method, path, { body, authorization });

/**
 * docs/running.md and writes-and-merge.md on PostgreSQL with several stateless processes: two real service
 * processes start at the same moment on one empty database (migrations and demo data run once),
 * then race each other on the same records. Requests alternate between the two processes.
 *
 * It runs on every database kind of the run.
 */

// SQLite too: two processes may share a file (a second instance, the CLIs), and starting two at
// once on a new file once failed a migration in CI.
const kinds = databaseKinds();

// describe.each refuses an empty table, so the suites are registered one per kind.
for (const kind of kinds) describe(`two service processes on one ${kind} database`, () => twoProcessSuite(kind));

function twoProcessSuite(kind: DatabaseKind): void {
  let database: TestDatabase;
  let services: ServiceProcess[] = [];
  const everyAnswer: JsonAnswer[] = [];

  /** Request i goes to process i % 2. */
  async function fire(requests: ((base: string) => Promise<JsonAnswer>)[]): Promise<JsonAnswer[]> {
    const answers = await Promise.all(requests.map((start, i) => start(services[i % services.length].url)));
    everyAnswer.push(...answers);
    return answers;
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop('SIGKILL')));
    await database?.drop();
  });

  it('both start at the same moment on the empty database; the demo data is loaded once', async () => {
    // LOG_LEVEL=info so that each process's log says whether it loaded the demo records.
    const starts = await Promise.allSettled([
      startServiceProcess(database.url, { LOG_LEVEL: 'info' }),
      startServiceProcess(database.url, { LOG_LEVEL: 'info' }),
    ]);
    services = starts.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(starts.filter((result) => result.status === 'rejected')).toEqual([]);
    for (const service of services) {
      expect((await send(service.url, 'GET', '/health')).status).toBe(200);
    }
    const loaders = services.filter((service) => service.output().includes('Loaded the demo records'));
    expect(loaders).toHaveLength(1);
    for (const service of services) {
      const links = await send(service.url, 'GET', '/type/network-link', { select: ['id'] }, basic());
      expect(links.status).toBe(200);
      expect(links.body.map((record: { id: string }) => record.id).sort()).toEqual(['p2p', 'slice']);
      const agents = await send(service.url, 'GET', '/catalog/agent', { select: ['id'] });
      expect(agents.status).toBe(200);
      expect(agents.body.map((record: { id: string }) => record.id).sort()).toEqual(['firewall', 'nprobe']);
    }
  });

  it('50 concurrent creates of one id over both: exactly one 201, the rest 406 "Id already found"', async () => {
    expect(services).toHaveLength(2);
    const answers = await fire(
      Array.from({ length: 50 }, (_, i) => (base: string) => send(base, 'POST', '/event', { id: 'raced', attempt: i })),
    );
    expect(countByStatus(answers)).toEqual({ 201: 1, 406: 49 });
    for (const answer of answers.filter((a) => a.status === 406)) {
      expect(answer.body).toEqual([expect.objectContaining({ code: 406, error: true, message: 'Id already found' })]);
    }
    const winner = answers.findIndex((a) => a.status === 201);
    for (const service of services) {
      expect((await send(service.url, 'GET', '/event/raced')).body).toEqual([{ id: 'raced', attempt: winner }]);
    }
  });

  it('40 concurrent PUTs over both, each adding a distinct action to one agent: none lost', async () => {
    expect(services).toHaveLength(2);
    const answers = await fire(
      Array.from(
        { length: 40 },
        (_, i) => (base: string) => send(base, 'PUT', '/catalog/agent/firewall', { actions: [{ id: `a${i}`, config: { cmd: 'c' } }] }),
      ),
    );
    expect(countByStatus(answers)).toEqual({ 200: 40 });
    for (const service of services) {
      const agent = await send(service.url, 'GET', '/catalog/agent/firewall');
      const actionIds: string[] = agent.body[0].actions.map((action: { id: string }) => action.id);
      expect(actionIds).toHaveLength(50);
      expect(new Set(actionIds.slice(10))).toEqual(new Set(Array.from({ length: 40 }, (_, i) => `a${i}`)));
    }
  });

  it('20 concurrent DELETEs of one record over both: one 205, the rest 404', async () => {
    expect(services).toHaveLength(2);
    expect((await send(services[0].url, 'POST', '/event', { id: 'doomed' })).status).toBe(201);
    const answers = await fire(Array.from({ length: 20 }, () => (base: string) => send(base, 'DELETE', '/event/doomed')));
    expect(countByStatus(answers)).toEqual({ 205: 1, 404: 19 });
    expect(answers.find((a) => a.status === 205)!.body).toEqual([expect.objectContaining({ code: 200, error: false })]);
    for (const service of services) expect((await send(service.url, 'GET', '/event/doomed')).status).toBe(404);
  });

  it('an equality one process answered before reflects at once what the other wrote since: a create, a merge, a delete', async () => {
    // On PostgreSQL the reader keeps the answer with its snapshot (SnapshotCheckedReads): each
    // write below commits in the other process, which the reader learns of only from PostgreSQL.
    expect(services).toHaveLength(2);
    const [reader, writer] = services;
    const bySource = async () => {
      const answer = await send(reader.url, 'GET', '/event', { where: { equals: { target: 'source', expr: '192.0.2.77' } } });
      everyAnswer.push(answer);
      return answer.status === 404 ? [] : answer.body.map((record: { id: string; n?: number }) => `${record.id}:${record.n ?? ''}`);
    };
    const write = async (method: string, path: string, body?: unknown) => {
      const answer = await send(writer.url, method, path, body);
      everyAnswer.push(answer);
      expect(answer.status).toBeLessThan(300);
    };
    await write('POST', '/event', { id: 'watched-1', source: '192.0.2.77', n: 1 });
    for (let twice = 0; twice < 2; twice++) expect(await bySource()).toEqual(['watched-1:1']);
    await write('POST', '/event', { id: 'watched-2', source: '192.0.2.77', n: 2 });
    expect(await bySource()).toEqual(['watched-1:1', 'watched-2:2']);
    expect(await bySource()).toEqual(['watched-1:1', 'watched-2:2']);
    await write('PUT', '/event/watched-1', { n: 10 });
    expect(await bySource()).toEqual(['watched-1:10', 'watched-2:2']);
    await write('PUT', '/event/watched-2', { source: '192.0.2.78' });
    expect(await bySource()).toEqual(['watched-1:10']);
    await write('DELETE', '/event/watched-1');
    expect(await bySource()).toEqual([]);
    // Unrelated writes in between: the answer is read again, and is the same.
    await write('POST', '/event', { id: 'watched-3', source: '192.0.2.77', n: 3 });
    expect(await bySource()).toEqual(['watched-3:3']);
    await write('POST', '/event', { id: 'elsewhere', source: '198.51.100.1' });
    expect(await bySource()).toEqual(['watched-3:3']);
  });

  it('answered no request with a 5xx, and both processes are still healthy', async () => {
    expect(everyAnswer).toHaveLength(50 + 40 + 20 + 7 + 9);
    expect(everyAnswer.filter((a) => a.status >= 500)).toEqual([]);
    for (const service of services) expect((await send(service.url, 'GET', '/health')).status).toBe(200);
  });
}
