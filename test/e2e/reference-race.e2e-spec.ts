import Database from 'better-sqlite3';
import { Client } from 'pg';
import { startServiceProcess, ServiceProcess } from '../support/service-process';
import { createTestDatabase, DatabaseKind, databaseKinds, TestDatabase } from '../support/test-databases';
import { JsonAnswer, sendJson } from '../support/json-http';
import { bearer } from '../support/test-credentials';

/**
 * docs/relations.md: a reference is checked in the same transaction as the write, so a delete of the
 * target cannot slip between the check and the write. A raw connection of our own deletes the
 * target and holds its transaction open while the service (a real process) writes a record that
 * names it: the write must wait, then be refused when the delete commits, or succeed when it
 * rolls back. An implementation that checked outside the write's transaction (or without a lock)
 * would see the not yet committed row and store a dangling reference.
 */

const HOLD_MS = 800;

/** A transaction of our own, outside the service, on the service's database. */
interface RawDeleter {
  deleteAndHold(family: string, id: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

async function rawDeleter(database: TestDatabase): Promise<RawDeleter> {
  if (database.kind === 'postgres') {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    return {
      deleteAndHold: async (family, id) => {
        await client.query('BEGIN');
        const deleted = await client.query('DELETE FROM inventory_record WHERE family = $1 AND id = $2', [family, id]);
        expect(deleted.rowCount).toBe(1);
      },
      commit: async () => void (await client.query('COMMIT')),
      rollback: async () => void (await client.query('ROLLBACK')),
      close: () => client.end(),
    };
  }
  const db = new Database(database.url.slice('sqlite:'.length));
  db.pragma('foreign_keys = ON');
  return {
    deleteAndHold: async (family, id) => {
      db.exec('BEGIN IMMEDIATE');
      expect(db.prepare('DELETE FROM inventory_record WHERE family = ? AND id = ?').run(family, id).changes).toBe(1);
    },
    commit: async () => void db.exec('COMMIT'),
    rollback: async () => void db.exec('ROLLBACK'),
    close: async () => void db.close(),
  };
}

/** Settles to the answer, or to 'pending' if it has not arrived after `ms`. */
async function within(answer: Promise<JsonAnswer>, ms: number): Promise<JsonAnswer | 'pending'> {
  return Promise.race([answer, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
}

describe.each(databaseKinds())('references against a concurrent delete on %s', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let service: ServiceProcess;
  let deleter: RawDeleter;
  const send = (method: string, path: string, body?: unknown) => sendJson(service.url, method, path, { body, authorization: bearer() });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    service = await startServiceProcess(database.url);
    deleter = await rawDeleter(database);
  });
  afterAll(async () => {
    await deleter?.close();
    await service?.stop('SIGKILL');
    await database?.drop();
  });

  const environment = (id: string, typeId: string) => ({ id, type_id: typeId, hostname: '10.0.0.9', enabled: true });

  it('a create waits for the delete of its target, and is refused when the delete commits', async () => {
    expect((await send('POST', '/type/exec-env', { id: 'doomed', name: 'Doomed' })).status).toBe(201);
    await deleter.deleteAndHold('exec-env-type', 'doomed');
    const create = send('POST', '/exec-env', environment('on-doomed', 'doomed'));
    expect(await within(create, HOLD_MS)).toBe('pending');
    await deleter.commit();
    const answer = await create;
    expect(answer.status).toBe(406);
    expect(answer.body).toEqual([
      { status: 'Not Acceptable', code: 406, error: true, message: { type_id: 'Execution environment type with id=doomed not found' } },
    ]);
    expect((await send('GET', '/exec-env/on-doomed')).status).toBe(404);
  });

  it('a create succeeds when the delete of its target rolls back', async () => {
    expect((await send('POST', '/type/exec-env', { id: 'spared', name: 'Spared' })).status).toBe(201);
    await deleter.deleteAndHold('exec-env-type', 'spared');
    const create = send('POST', '/exec-env', environment('on-spared', 'spared'));
    expect(await within(create, HOLD_MS)).toBe('pending');
    await deleter.rollback();
    expect((await create).status).toBe(201);
    expect((await send('GET', '/type/exec-env/spared')).status).toBe(200);
  });

  it('an update that changes a reference waits too, and is refused when the delete commits', async () => {
    expect(
      (
        await send('POST', '/type/exec-env', [
          { id: 'first', name: 'First' },
          { id: 'second', name: 'Second' },
        ])
      ).status,
    ).toBe(201);
    expect((await send('POST', '/exec-env', environment('mover', 'first'))).status).toBe(201);
    await deleter.deleteAndHold('exec-env-type', 'second');
    const update = send('PUT', '/exec-env/mover', { type_id: 'second' });
    expect(await within(update, HOLD_MS)).toBe('pending');
    await deleter.commit();
    const answer = await update;
    expect(answer.status).toBe(406);
    expect((answer.body as { message: unknown }[])[0].message).toEqual({ type_id: 'Execution environment type with id=second not found' });
    expect(((await send('GET', '/exec-env/mover')).body as { type_id: string }[])[0].type_id).toBe('first');
  });

  it('an update that repeats a reference whose target is gone passes (references are checked when set or changed)', async () => {
    expect((await send('POST', '/type/exec-env', { id: 'fleeting', name: 'Fleeting' })).status).toBe(201);
    expect((await send('POST', '/exec-env', environment('stayer', 'fleeting'))).status).toBe(201);
    expect((await send('DELETE', '/type/exec-env/fleeting')).status).toBe(205);
    expect((await send('PUT', '/exec-env/stayer', { type_id: 'fleeting', description: 'still here' })).status).toBe(200);
  });
});

describe.each(databaseKinds())('references while another process deletes their targets, on %s', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let services: ServiceProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // allSettled: a process that started is stopped by afterAll even when the other did not start
    // (a leftover child process kept Jest from exiting once).
    const starts = await Promise.allSettled([startServiceProcess(database.url), startServiceProcess(database.url)]);
    services = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    for (const start of starts) if (start.status === 'rejected') throw start.reason;
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop('SIGKILL')));
    await database?.drop();
  });

  it('every create is either stored with its target present at commit, or refused naming the target; nothing fails', async () => {
    const [writer, deleterProcess] = services.map(
      (service) => (method: string, path: string, body?: unknown) => sendJson(service.url, method, path, { body, authorization: bearer() }),
    );
    const rounds = 25;
    const types = Array.from({ length: rounds }, (_, round) => ({ id: `t${round}`, name: `Type ${round}` }));
    expect((await writer('POST', '/type/exec-env', types)).status).toBe(201);
    const answers = await Promise.all(
      types.flatMap((type) => [
        ...[0, 1, 2].map((n) =>
          writer('POST', '/exec-env', { id: `${type.id}-env-${n}`, type_id: type.id, hostname: 'h', enabled: 'yes' }).then((answer) => ({
            answer,
            type: type.id,
          })),
        ),
        deleterProcess('DELETE', `/type/exec-env/${type.id}`).then((answer) => ({ answer, type: type.id })),
      ]),
    );
    for (const { answer, type } of answers) {
      expect([201, 205, 406]).toContain(answer.status);
      if (answer.status === 406) {
        expect((answer.body as { message: unknown }[])[0].message).toEqual({
          type_id: `Execution environment type with id=${type} not found`,
        });
      }
    }
    const stored = answers.filter(({ answer }) => answer.status === 201).length;
    const refused = answers.filter(({ answer }) => answer.status === 406).length;
    expect(stored + refused).toBe(rounds * 3);
    expect(answers.filter(({ answer }) => answer.status === 205)).toHaveLength(rounds);
    const environments = await writer('GET', '/exec-env', { select: ['id'] });
    const storedIds = environments.status === 404 ? [] : (environments.body as { id: string }[]).map((record) => record.id);
    expect(storedIds).toHaveLength(stored);
  });
});
