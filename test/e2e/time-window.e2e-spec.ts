import { DataSource } from 'typeorm';
import { RecordService, recordServiceToken } from '@inventory/crud';
import { EVENT_FAMILY } from '../../apps/inventory/src/families/event/event.module';
import { MultiValuedPaths1764400000000 } from '../../apps/inventory/src/migrations/1764400000000-multi-valued-paths';
import { PostgresValuePathKeys1764500000000 } from '../../apps/inventory/src/migrations/1764500000000-postgres-value-path-keys';
import { NARROWING_LIMIT } from '../../libs/crud/src/store/seq-tree-plan';
import { jwtRequests } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

/**
 * A time window whose bounds each let most events through (at midday: each half the family) is
 * one range of the value index while every event holds one timestamp, and answers exactly once
 * one holds two (migration 1764400000000 marks such paths, from the rows already stored too).
 * And the first events a broad bound does not let through are found without reading its matches.
 */
describe.each(databaseKinds())('broad bounds on a time path, on %s', (kind) => {
  const COUNT = NARROWING_LIMIT + 2_000;
  const at = (second: number) => `2026-11-21T${new Date(second * 1000).toISOString().slice(11, 19)}Z`;
  const window = {
    where: { and: [{ gte: { target: 'timestamp', expr: at(1_000) } }, { lt: { target: 'timestamp', expr: at(COUNT - 1_000) } }] },
  };
  let database: TestDatabase;
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const query = (text: string) => t.app.get(DataSource).query<Record<string, unknown>[]>(text);
  const multiValued = async () =>
    kind === 'postgres'
      ? (await query("SELECT path FROM inventory_value_multi WHERE family = 'event' ORDER BY path")).map((row) => row.path)
      : (await query("SELECT path FROM inventory_value_path WHERE family = 'event' AND multi = 1 ORDER BY path")).map((row) => row.path);
  const idsOf = async (where: object) => {
    const response = await api.read('event', undefined, where);
    expect(response.status).toBe(200);
    return (response.body as { id: string }[]).map((event) => event.id);
  };
  const windowIds = () => idsOf(window);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    t = await createTestApp(kind, { database });
    for (let from = 0; from < COUNT; from += 1_000) {
      const events = Array.from({ length: 1_000 }, (_, k) => ({ id: `w${from + k}`, source: '198.51.100.1', timestamp: at(from + k) }));
      expect((await api.create('event', events)).status).toBe(201);
    }
    // Events do not declare `timestamp` (issue 10): a client that windows by time teaches it with
    // its first window, and from then on it is indexed like a declared path.
    await windowIds();
    await t.app.get<RecordService>(recordServiceToken(EVENT_FAMILY), { strict: false }).learnedIndex.settled();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('answers the events between the bounds while each holds one timestamp', async () => {
    const ids = await windowIds();
    expect(ids).toHaveLength(COUNT - 2_000);
    expect(ids[0]).toBe('w1000');
    expect(ids.at(-1)).toBe(`w${COUNT - 1_001}`);
    expect(await multiValued()).toEqual([]);
  });

  it('`not` of a broad bound, first ten: the first events past it, found by walking arrival order', async () => {
    const first = await idsOf({ where: { not: { lt: { target: 'timestamp', expr: at(6_000) } } }, limit: { from: 0, to: 9 } });
    expect(first).toEqual(Array.from({ length: 10 }, (_, k) => `w${6_000 + k}`));
  });

  it('finds an event updated to hold two sources, each passing one bound, none between them', async () => {
    // Every event's source is 198.51.100.1: both bounds let all of them through.
    const bySource = {
      where: { and: [{ gte: { target: 'source', expr: '198.51.100.0' } }, { lt: { target: 'source', expr: '198.51.100.2' } }] },
    };
    expect(await idsOf(bySource)).toHaveLength(COUNT);
    expect((await api.update('event', { source: ['1.1.1.1', '9.9.9.9'] }, 'w3')).status).toBe(200);
    expect(await multiValued()).toEqual(['source']);
    expect(await idsOf(bySource)).toHaveLength(COUNT);
  });

  it('finds an event whose two timestamps each pass one bound, none between them', async () => {
    const both = { id: 'both', source: '198.51.100.1', timestamp: [at(500), at(COUNT - 500)] };
    expect((await api.create('event', both)).status).toBe(201);
    expect(await multiValued()).toEqual(['source', 'timestamp']);
    const ids = await windowIds();
    expect(ids).toHaveLength(COUNT - 2_000 + 1);
    expect(ids).toContain('both');
  });

  it('the migration marks the paths from the rows already stored', async () => {
    const runner = t.app.get(DataSource).createQueryRunner();
    try {
      // On PostgreSQL, 1764400000000 reads the value table as it was before 1764500000000 keyed its paths.
      const pathKeys = new PostgresValuePathKeys1764500000000();
      const migration = new MultiValuedPaths1764400000000();
      await pathKeys.down(runner);
      await migration.down(runner);
      await migration.up(runner);
      await pathKeys.up(runner);
    } finally {
      await runner.release();
    }
    expect(await multiValued()).toEqual(['source', 'timestamp']);
    expect(await windowIds()).toContain('both');
  });
});
