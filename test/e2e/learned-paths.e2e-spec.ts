import { DataSource } from 'typeorm';
import {
  JsonObject,
  MAX_LEARNED_PATHS,
  parseRecordQuery,
  postgresDialect,
  QueryEvaluator,
  RecordSelection,
  RecordService,
  recordServiceToken,
} from '@inventory/crud';
import request from 'supertest';
import { EVENT_FAMILY } from '../../apps/inventory/src/families/event/event.module';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';

/**
 * Events declare `source` alone; a filter on another path learns it (issue 10): the
 * path is kept in inventory_setting, its rows are built in the background, and queries use SQL
 * for it once they are complete. Over HTTP, on SQLite and PostgreSQL: the first read waits for
 * the build, then SQL answers (a plan without an in-memory re-check; on PostgreSQL, EXPLAIN shows
 * the value index), kept across a restart, and capped. Exact answers during a build are the unit
 * tests' (learned-index.spec.ts), where a query may plan without waiting.
 */
const COUNT = 3000;
const doc = (i: number) => ({
  id: `ev-${String(i).padStart(5, '0')}`,
  source: `10.0.${i % 40}.${i % 7}`,
  severity: i % 300 === 0 ? 'critical' : 'info',
  payload: { proto: i % 3 === 0 ? 'udp' : 'tcp' },
});
const DOCS = Array.from({ length: COUNT }, (_, i) => doc(i));
const CRITICAL = DOCS.filter((d) => d.severity === 'critical').map((d) => d.id);
const byCritical = { where: { equals: { target: 'severity', expr: 'critical' } } };

describe.each(databaseKinds())('paths learned from queries on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  const events = () => t.app.get<RecordService>(recordServiceToken(EVENT_FAMILY), { strict: false });
  const learned = async () => {
    const rows = await t.app.get(DataSource).query("SELECT value FROM inventory_setting WHERE name = 'value_index_learned:event'");
    return rows.length ? JSON.parse(rows[0].value) : undefined;
  };
  const ids = async (query: object) => {
    const response = await request(t.url).get('/event').set('Authorization', bearer()).send(query);
    if (response.status === 404) return []; // nothing matched
    expect(response.status).toBe(200);
    return (response.body as { id: string }[]).map((record) => record.id);
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    t = await createTestApp(kind, { database });
    for (let start = 0; start < COUNT; start += 1000) {
      const response = await request(t.url)
        .post('/event')
        .set('Authorization', bearer())
        .send(DOCS.slice(start, start + 1000));
      expect(response.status).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('the first filter on an undeclared path learns it and is answered once its rows are built, exactly', async () => {
    expect(await ids(byCritical)).toEqual(CRITICAL);
    // The read waited for the build instead of scanning every record in memory meanwhile.
    expect(await learned()).toEqual({ building: [], ready: ['severity'] });
    // Every record got its row, whichever page (PostgreSQL builds pages side by side) it fell in.
    expect(await ids({ where: { exists: { target: 'severity' } } })).toEqual(DOCS.map((d) => d.id));
    // A record written after the build is indexed by its write.
    const late = await request(t.url).post('/event').set('Authorization', bearer()).send({ id: 'late', severity: 'critical' });
    expect(late.status).toBe(201);
    expect(await ids(byCritical)).toEqual([...CRITICAL, 'late']);
    await events().learnedIndex.settled();
    expect(await learned()).toEqual({ building: [], ready: ['severity'] });
    expect(await ids(byCritical)).toEqual([...CRITICAL, 'late']);
    if (kind === 'postgres') {
      // The build ends with ANALYZE (autovacuum's own would set last_autoanalyze instead): plans
      // must not go by statistics taken before the path's rows existed.
      const [stats] = await t.app.get(DataSource).query("SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'inventory_value'");
      expect(stats.last_analyze).not.toBeNull();
    }
  });

  it('once built, SQL answers it: no in-memory re-check, and on PostgreSQL an index scan', async () => {
    const index = events().learnedIndex.current;
    const { select: _select, ...parsed } = parseRecordQuery(byCritical, { allowSelect: true });
    const selection = new RecordSelection({ family: 'event', valueIndex: index, ...parsed }, postgresDialect);
    expect(selection.residual).toBeUndefined();
    if (kind === 'postgres') {
      const dataSource = t.app.get(DataSource);
      await dataSource.query('ANALYZE');
      const sql = selection.candidateSeqs();
      let n = 0;
      const plan = (await dataSource.query(`EXPLAIN ${sql.sql.replace(/\?/g, () => `$${++n}`)}`, sql.params))
        .map((row: Record<string, string>) => row['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/inventory_value_text/);
    }
  });

  it('survives a restart: the next start neither drops it nor rebuilds it, and uses it at once', async () => {
    await t.close();
    t = await createTestApp(kind, { database });
    expect(await learned()).toEqual({ building: [], ready: ['severity'] });
    expect(events().learnedIndex.current.covers(['severity'])).toBe(true);
    expect(await ids(byCritical)).toEqual([...CRITICAL, 'late']);
    expect(await ids({ where: { equals: { target: 'payload.proto', expr: 'udp' } } })).toEqual(
      DOCS.filter((d) => d.payload.proto === 'udp').map((d) => d.id),
    );
    await events().learnedIndex.settled();
    expect((await learned()).ready).toEqual(['payload.proto', 'severity']);
  });

  it('builds its rows from records as stored: the last of duplicate keys, escaped keys, keys inside strings, lists', async () => {
    // Written before the paths are learned, then built from the stored texts, which the build
    // reads one field out of without parsing the rest: the rows must be what parsing the whole
    // record gives. A text is stored as sent (`\u006f` in a key too) unless it spells a member
    // twice; the unit tests of topLevelField cover duplicates in a stored text.
    const texts = [
      '{"id":"tx-dup","probe":"a","probe":"b","nest":{"kind":1},"nest":{"kind":2}}',
      '{"id":"tx-esc","pr\\u006fbe":"b","nest":{"ki\\u006ed":2}}',
      '{"id":"tx-str","note":"\\"probe\\":\\"b\\", {\\"nest\\":","probe":"c\\\\","nest":[{"kind":3},{"kind":[2]}]}',
      '{"id":"tx-list","probe":[{"x":"b"},"b",["b"]],"nest":"kind"}',
      '{"id":"tx-none","probes":"b","nested":{"kind":2}}',
    ];
    for (const text of texts) {
      const response = await request(t.url)
        .post('/event')
        .set('Authorization', bearer())
        .set('Content-Type', 'application/json')
        .send(text);
      expect(response.status).toBe(201);
    }
    const expected = (where: object): string[] => {
      const { where: condition } = parseRecordQuery({ where }, { allowSelect: false });
      const evaluator = new QueryEvaluator(condition!);
      return texts
        .map((text) => JSON.parse(text) as JsonObject)
        .filter((record) => evaluator.matches(record))
        .map((record) => record.id as string);
    };
    const probes = [
      { equals: { target: 'probe', expr: 'b' } },
      { equals: { target: 'probe', expr: 'a' } },
      { equals: { target: 'probe', expr: 'c\\' } },
      { equals: { target: 'probe.x', expr: 'b' } },
      { equals: { target: 'nest.kind', expr: 2 } },
      { gte: { target: 'nest.kind', expr: 1 } },
    ];
    for (const where of probes) expect({ where, ids: await ids({ where }) }).toEqual({ where, ids: expected(where) });
    await events().learnedIndex.settled();
    expect((await learned()).ready).toEqual(expect.arrayContaining(['probe', 'nest.kind']));
    expect(expected(probes[0])).toEqual(['tx-dup', 'tx-esc', 'tx-list']);
  });

  it(`is capped at ${MAX_LEARNED_PATHS} paths: past it, answers still exact, through the in-memory scan`, async () => {
    for (let k = (await learned()).ready.length; k < MAX_LEARNED_PATHS; k++) {
      expect(await ids({ where: { equals: { target: `extra${k}`, expr: 'x' } } })).toEqual([]);
    }
    await events().learnedIndex.settled();
    expect((await learned()).ready).toHaveLength(MAX_LEARNED_PATHS);
    expect(await ids({ where: { equals: { target: 'source', expr: '10.0.0.0' } }, order: [{ target: 'payload.nothing' }] })).toEqual(
      DOCS.filter((d) => d.source === '10.0.0.0').map((d) => d.id),
    );
    const after = await learned();
    expect(after.ready).toHaveLength(MAX_LEARNED_PATHS);
    expect(after.ready).not.toContain('payload.nothing');
    expect(after.building).toEqual([]);
  });
});

/**
 * Two processes on one database: a path the second learns must be indexed by the first one's
 * very next write, though the first last read the family's learned paths before (on PostgreSQL
 * a create is one statement that checks the setting it wrote under; on SQLite each write reads it).
 */
describe.each(databaseKinds())('a path learned by another process on %s', (kind) => {
  let database: TestDatabase;
  let writer: TestApp;
  let learner: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    writer = await createTestApp(kind, { database });
    learner = await createTestApp(kind, { database });
  }, 60_000);
  afterAll(async () => {
    await writer?.close();
    await learner?.close();
    await database?.drop();
  });

  const create = async (app: TestApp, record: object) => {
    const response = await request(app.url).post('/event').set('Authorization', bearer()).send(record);
    expect(response.status).toBe(201);
  };
  const severityRows = async (id: string) => {
    const dataSource = writer.app.get(DataSource);
    const rows = await dataSource.query(
      `SELECT count(*) AS n FROM ${NAMED_VALUE_ROWS} v JOIN inventory_record r ON r.seq = v.seq WHERE r.family = 'event' AND r.id = $1 AND v.path = 'severity'`.replace(
        '$1',
        kind === 'postgres' ? '$1' : '?',
      ),
      [id],
    );
    return Number(rows[0].n);
  };

  it("is indexed by the other process's next write", async () => {
    await create(writer, { id: 'before', severity: 'critical' });
    await create(writer, { id: 'before-2', severity: 'info' });
    const response = await request(learner.url).get('/event').set('Authorization', bearer()).send(byCritical);
    expect((response.body as { id: string }[]).map((record) => record.id)).toEqual(['before']);
    await create(writer, { id: 'after', severity: 'critical' });
    await learner.app.get<RecordService>(recordServiceToken(EVENT_FAMILY), { strict: false }).learnedIndex.settled();
    expect(await severityRows('before')).toBe(1);
    expect(await severityRows('after')).toBe(1);
    const answer = await request(learner.url).get('/event').set('Authorization', bearer()).send(byCritical);
    expect((answer.body as { id: string }[]).map((record) => record.id)).toEqual(['before', 'after']);
  });
});
