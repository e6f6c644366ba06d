import { DataSource } from 'typeorm';
import { parseRecordQuery, postgresDialect, RecordSelection, RecordStore, ValueIndex } from '@inventory/crud';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { describeOnPostgres } from '../support/test-databases';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';
import { SeqSet } from '../../libs/crud/src/store/seq-set';
import {
  DELETE_BY_SEQ_SQL,
  LEARNED_CLEAR_SQL,
  LEARNED_PAGE_ENDS_SQL,
  LEARNED_PAGE_SETTINGS,
  LEARNED_PAGE_SQL,
  POSTGRES_LEARNED_PAGE_RECORDS,
  UPDATE_BY_SEQ_SQL,
} from '../../libs/crud/src/store/postgres-record.store';

const RECORDS = 100_000;
/**
 * The paths these plans index: `source`, as events declare it, and a numeric `timestamp`, which
 * events no longer declare (issue 10) but which any family may, for the number index's plans,
 * and `up`, a boolean every other event holds, for a value most records share.
 * The store writes and the selections read under this declaration, whatever the app's is.
 */
const EVENT_INDEX = ValueIndex.of(['source', 'timestamp', 'up']);
describeOnPostgres('query plans on %s with 100k events', 'check PostgreSQL query plans', (kind) => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const store = t.app.get(RecordStore);
    for (let start = 0; start < RECORDS; start += 5000) {
      const batch = Array.from({ length: 5000 }, (_, offset) => {
        const i = start + offset;
        const source = `10.${i % 250}.${Math.floor(i / 250) % 250}.${i % 7}`;
        return {
          id: `ev-${i}`,
          doc: {
            id: `ev-${i}`,
            source,
            timestamp: 1_763_700_000 + i,
            up: i % 2 === 0,
            severity: i % 10,
            host: { name: `host-${i % 10_000}` },
          },
        };
      });
      await store.insert('event', batch, EVENT_INDEX);
    }
    dataSource = t.app.get(DataSource);
    await dataSource.query('ANALYZE');
  }, 180_000);
  afterAll(async () => t?.close());

  const plan = async (query: unknown) => {
    const { select: _select, ...parsed } = parseRecordQuery(query, { allowSelect: true });
    const sql = new RecordSelection({ family: 'event', valueIndex: EVENT_INDEX, ...parsed }, postgresDialect).candidateSeqs();
    let index = 0;
    const rows = await dataSource.query(`EXPLAIN ${sql.sql.replace(/\?/g, () => `$${++index}`)}`, sql.params);
    return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
  };

  // Selective filters on indexed paths (a few matches in 100k), the case the value index exists
  // for; other paths are not in it and are checked in memory.
  it.each([
    ['equality on a declared field', { where: { equals: { target: 'source', expr: '10.42.0.0' } } }],
    ['in on a declared field', { where: { in: { target: 'source', expr: ['10.1.1.1', '10.2.2.2'] } } }],
    ['exists below a declared field', { where: { exists: { target: 'source.city' } } }],
    ['number equality', { where: { equals: { target: 'timestamp', expr: 1_763_704_242 } } }],
    [
      'a conjunction',
      { where: { and: [{ equals: { target: 'source', expr: '10.7.0.0' } }, { gt: { target: 'timestamp', expr: 1_763_700_000 } }] } },
    ],
    [
      'a declared field with an undeclared one',
      { where: { and: [{ equals: { target: 'source', expr: '10.7.0.0' } }, { equals: { target: 'host.name', expr: 'host-7' } }] } },
    ],
  ])('%s uses the value index, never a sequential scan', async (_label, query) => {
    const text = await plan(query);
    expect(text).toMatch(/Index (Only )?Scan using inventory_value_(text|num)|Bitmap Index Scan on inventory_value_(text|num)/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  // The text index holds left(text, 200): a range on the whole text alone read every entry of
  // its path. Before: a bitmap scan of the path's entries, no condition on the text.
  it.each([
    ['a range on text', { where: { gte: { target: 'source', expr: '10.99.99.' } } }],
    ['a numeric range (numbers, and texts that read as them)', { where: { gt: { target: 'timestamp', expr: 1_763_799_990 } } }],
  ])('%s bounds the text index by its prefix', async (_label, query) => {
    const text = await plan(query);
    // Which join PostgreSQL picks around it follows its row estimates; the bound is what changed.
    expect(text).toMatch(/Index Cond: .*"?left"?\(text, 200\) [<>]= /);
  });

  // A path whose value rows have no statistics yet (one learned from a query, just built) looks
  // tiny to the planner, which then answered MIN(v.num) per candidate by walking the path's
  // number index until it met the candidate: 20k candidates ordered by such a path ran into the
  // 10 s query budget. Each candidate's values must come from the (seq, path) index.
  it('orders candidates by looking up their own values, even without statistics', async () => {
    const query = { where: { gte: { target: 'source', expr: '10.2' } }, order: [{ target: 'timestamp', mode: 'asc' }] };
    await dataSource.query("DELETE FROM pg_statistic WHERE starelid = 'inventory_value'::regclass");
    try {
      const text = await plan(query);
      const lookups = text.slice(text.search(/^\s+SubPlan \d+$/m));
      expect(lookups).toMatch(/(using|on) inventory_value_seq/);
      expect(lookups).not.toMatch(/(using|on) inventory_value_(num|text)/);
    } finally {
      await dataSource.query('ANALYZE inventory_value');
    }
  });

  // A learned path's build runs these statements per page of records (and where its pages end). Planned by
  // statistics taken before the records came (or before the path had rows), each read what the
  // build had left or done so far, page after page: a build of 200k events took 55 s.
  it("builds a learned path's rows a page at a time by index, even without statistics", async () => {
    await dataSource.query("DELETE FROM pg_statistic WHERE starelid IN ('inventory_record'::regclass, 'inventory_value'::regclass)");
    await dataSource.query("UPDATE pg_class SET reltuples = -1 WHERE oid IN ('inventory_record'::regclass, 'inventory_value'::regclass)");
    try {
      const [{ first }] = await dataSource.query<{ first: number }[]>(
        "SELECT min(seq)::int AS first FROM inventory_record WHERE family = 'event'",
      );
      const plans = await dataSource.transaction(async (manager) => {
        await manager.query(LEARNED_PAGE_SETTINGS);
        const explain = async (sql: string, params: unknown[]) =>
          (await manager.query<Record<string, string>[]>(`EXPLAIN ${sql}`, params)).map((row) => row['QUERY PLAN']).join('\n');
        return {
          page: await explain(LEARNED_PAGE_SQL, ['event', first + 999, first + RECORDS, POSTGRES_LEARNED_PAGE_RECORDS]),
          clear: await explain(LEARNED_CLEAR_SQL, [first + 999, 'event', 'source', 'source.', first + 999 + POSTGRES_LEARNED_PAGE_RECORDS]),
          ends: await explain(LEARNED_PAGE_ENDS_SQL, [
            'event',
            first + 999,
            first + RECORDS,
            POSTGRES_LEARNED_PAGE_RECORDS,
            POSTGRES_LEARNED_PAGE_RECORDS,
          ]),
        };
      });
      expect(plans.page).toMatch(/Index Scan using inventory_record_(pkey|family_seq) on inventory_record/);
      expect(plans.page).not.toMatch(/Sort|Bitmap|Seq Scan/);
      expect(plans.clear).toMatch(/Index (Only )?Scan using inventory_value_seq on inventory_value/);
      expect(plans.clear).not.toMatch(/inventory_value_(text|num)|Seq Scan/);
      expect(plans.ends).toMatch(/Index (Only )?Scan using inventory_record_family_seq on inventory_record/);
      expect(plans.ends).not.toMatch(/Sort|Bitmap|Seq Scan/);
    } finally {
      await dataSource.query('ANALYZE inventory_record, inventory_value');
    }
  });

  // A build page commits without waiting for its WAL flush; every other write must still wait
  // for it (a 2xx is durable), so the setting must end with the page's transaction.
  it("lets a build page's settings end with its transaction, on the connection that ran it", async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query(LEARNED_PAGE_SETTINGS);
      const [during] = (await runner.query('SHOW synchronous_commit')) as { synchronous_commit: string }[];
      await runner.commitTransaction();
      const [after] = (await runner.query('SHOW synchronous_commit')) as { synchronous_commit: string }[];
      expect([during.synchronous_commit, after.synchronous_commit]).toEqual(['off', 'on']);
    } finally {
      await runner.release();
    }
  });

  // One statistics for every path's values: a text range on one path was estimated from all of
  // them (97 matches taken for 13k) and answered by a merge join over every record of the family.
  it('looks the matches of one leaf up by family and sequence number, however many it expects', async () => {
    const text = await plan({ where: { gt: { target: 'timestamp', expr: 1_763_799_990 } } });
    expect(text).toMatch(
      /Index (Only )?Scan using inventory_record_family_seq on inventory_record r[\s\S]*Index Cond: \(\(family = 'event'::text\) AND \(seq = ANY \(\$\d+\)\)\)/,
    );
    expect(text).not.toMatch(/Merge|Seq Scan/);
  });

  // Since 1764700000000 no index has `seq` first: each statement that finds records by sequence
  // number must name their family, or it walks every entry of (family, seq).
  it('finds records by family and sequence number in every statement that looks them up by seq', async () => {
    const explain = async (sql: string, params: unknown[]) => {
      let index = 0;
      const rows = await dataSource.query(`EXPLAIN ${sql.replace(/\?/g, () => `$${++index}`)}`, params);
      return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
    };
    const listed = new RecordSelection({ family: 'event', valueIndex: EVENT_INDEX, order: [], offset: 0 }, postgresDialect);
    listed.narrowTo(new SeqSet(new Set([3, 1, 2]), false));
    const statements: [string, unknown[]][] = [
      [RecordSelection.rowsBySeq('event', [1, 2, 3]).sql, RecordSelection.rowsBySeq('event', [1, 2, 3]).params],
      [listed.candidateSeqs().sql, listed.candidateSeqs().params],
      [UPDATE_BY_SEQ_SQL, ['[1,2]', '{"id":"ev-0"}\u001e{"id":"ev-1"}', 'event']],
      [DELETE_BY_SEQ_SQL, ['event', [1, 2]]],
    ];
    for (const [sql, params] of statements) {
      const text = await explain(sql, params);
      expect(text).toMatch(
        /Index (Only )?Scan using inventory_record_family_seq on inventory_record( r)?\b[\s\S]*Index Cond: \(\(family = /,
      );
      expect(text).not.toMatch(/Seq Scan|Filter: \(seq/);
    }
  });

  // An equality on one value read in arrival order is one statement of its rows: the index's
  // entries for one value come in arrival order, so it stops at its limit, however common the
  // value and whatever PostgreSQL expects of it (a generic plan knows neither value nor path).
  it.each([
    ['a text', { equals: { target: 'source', expr: '10.42.0.0' } }, 1],
    ['a number', { equals: { target: 'timestamp', expr: 1_763_704_242 } }, 1],
    ['a boolean half the events hold', { equals: { target: 'up', expr: true } }, 16],
    ['a text matching no event', { equals: { target: 'source', expr: 'absent' } }, 0],
  ])('an equality on %s reads its first matches from the value index, in arrival order', async (_label, where, found) => {
    const { select: _select, ...parsed } = parseRecordQuery({ where, limit: { from: 0, to: 9 } }, { allowSelect: true });
    const statement = new RecordSelection({ family: 'event', valueIndex: EVENT_INDEX, ...parsed }, postgresDialect).equalityRows(16)!;
    let index = 0;
    const sql = statement.sql.replace(/\?/g, () => `$${++index}`);
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      const text = await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL plan_cache_mode = ${mode}`);
        const rows = await manager.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`, statement.params);
        return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      });
      expect(text).toMatch(/Index (Only )?Scan using inventory_value_(text|num) on inventory_value v \(actual rows=\d+ /);
      // Each record by (family, seq): the table has no other index on seq.
      expect(text).toMatch(
        /Index Scan using inventory_record_family_seq on inventory_record r .*\n\s*Index Cond: \(\(family = (\$1|'event'::text)\) AND \(seq = v\.seq\)\)/,
      );
      expect(text).toMatch(new RegExp(`^Limit \\(actual rows=${found} `));
      // Only the window's index entries are read (a common value's 50k are not), and none sorted.
      const read = [...text.matchAll(/inventory_value v \(actual rows=(\d+) /g)].map((match) => Number(match[1]));
      expect(read).toEqual([found]);
      expect(text).not.toMatch(/Sort|Seq Scan|Bitmap/);
    }
    expect(await dataSource.query(sql, statement.params)).toHaveLength(found);
  });

  // Every statement the store runs has an index that answers it, and PostgreSQL's estimates for
  // the value table (one set of statistics for every path) had it scan the whole table instead.
  it("runs the store's statements with sequential scans off", async () => {
    const [setting] = await dataSource.query('SHOW enable_seqscan');
    expect(setting.enable_seqscan).toBe('off');
  });

  it('keeps only the indexed paths in the value table', async () => {
    const paths = await dataSource.query(`SELECT DISTINCT path FROM ${NAMED_VALUE_ROWS} v WHERE family = 'event' ORDER BY path`);
    expect(paths.map((row: { path: string }) => row.path)).toEqual(['source', 'timestamp', 'up']);
  });

  it('answers filtered reads over HTTP, on a declared path and on an undeclared one', async () => {
    const ids = async (where: unknown) => {
      const response = await request(t.url).get('/event').set('Authorization', bearer()).send({ where });
      expect(response.status).toBe(200);
      return response.body.map((record: { id: string }) => record.id);
    };
    expect(await ids({ equals: { target: 'source', expr: '10.42.0.0' } })).toEqual(['ev-42']);
    expect(await ids({ equals: { target: 'host.name', expr: 'host-42' } })).toEqual(
      Array.from({ length: 10 }, (_, k) => `ev-${42 + k * 10_000}`),
    );
  });
});
