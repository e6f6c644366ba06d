import { JsonObject, parseRecordQuery, QueryEvaluator, READ_PAGE_SIZE } from '@inventory/crud';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EVENT_FAMILY } from '../../apps/inventory/src/families/event/event.module';
import { GadgetModule } from '../support/gadget-family/gadget.module';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';
import { valueRowsAt } from '../support/value-rows';

/**
 * Events index only `source`. Every query must still answer exactly as the reference evaluator
 * does, on the declared path and on undeclared ones alike (which queries teach the family), and order exactly as SQL
 * does from a complete index: the same records also go to the test-only gadget family, which
 * indexes every path, and both families must answer alike. More records than two read pages,
 * so that windows and streamed answers cross page boundaries.
 */
const COUNT = 2 * READ_PAGE_SIZE + 500;

function eventDoc(i: number): JsonObject {
  const doc: JsonObject = {
    id: `ev-${String(i).padStart(5, '0')}`,
    label: 'event',
    source: `10.0.${i % 40}.${i % 7}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % COUNT) * 1000).toISOString(),
    severity: i % 17 === 0 ? '5' : i % 10,
    bytes: i % 13 === 0 ? [i % 100, (i * 31) % 1000] : (i * 7919) % 100_000,
  };
  if (i % 11 === 0) doc.host = `h-${i % 3}`;
  else if (i % 4 !== 0) doc.host = { name: `host-${i % 23}`, ip: `192.168.${i % 5}.${i % 250}` };
  if (i % 9 === 0) doc.up = i % 2 === 0;
  if (i % 19 === 0) doc.note = null;
  if (i % 6 === 0) doc.tags = ['net', i % 12 === 0 ? 'fw' : 'ids'];
  return doc;
}

const DOCS = Array.from({ length: COUNT }, (_, i) => eventDoc(i));

const eq = (target: string, expr: unknown) => ({ equals: { target, expr } });
const op = (name: string, target: string, expr: unknown) => ({ [name]: { target, expr } });

const WHERES: [string, object][] = [
  ['equals on source (declared)', eq('source', '10.0.3.3')],
  ['equals on host.name', eq('host.name', 'host-5')],
  ['equals on host, a string in some records', eq('host', 'h-1')],
  ['equals a number', eq('severity', 5)],
  ['equals "5" finds 5 and "5"', eq('severity', '5')],
  ['equals through a list', eq('tags', 'fw')],
  ['equals a boolean', eq('up', true)],
  ['equals null', eq('note', null)],
  ['in on source (declared)', op('in', 'source', ['10.0.1.1', '10.0.2.2', 'nowhere'])],
  ['in on host.name', op('in', 'host.name', ['host-1', 'host-2'])],
  ['in numbers', op('in', 'bytes', [0, 31, 62, 7919])],
  ['exists host', { exists: { target: 'host' } }],
  ['exists host.name', { exists: { target: 'host.name' } }],
  ['exists note (null only)', { exists: { target: 'note' } }],
  ['not exists host', { not: { exists: { target: 'host' } } }],
  ['reg_exp on source (declared)', op('reg_exp', 'source', '10\\.0\\.1[0-9]\\..*')],
  ['reg_exp on host.name', op('reg_exp', 'host.name', 'host-1[0-9]')],
  ['wildcard on host.name', op('wildcard', 'host.name', 'host-2*')],
  ['gt a number', op('gt', 'bytes', 50_000)],
  ['lte a number', op('lte', 'severity', 3)],
  ['gt a string on a number field', op('gt', 'severity', '4')],
  ['lt a timestamp (undeclared since issue 10)', op('lt', 'timestamp', '2026-01-01T00:10:00Z')],
  ['not on source (declared)', { not: eq('source', '10.0.3.3') }],
  ['not on host.name', { not: eq('host.name', 'host-5') }],
  ['not of a regular expression', { not: op('reg_exp', 'source', '10\\.0\\.1.*') }],
  ['or of declared and undeclared', { or: [eq('source', '10.0.3.3'), eq('host.name', 'host-5')] }],
  ['and of declared and undeclared', { and: [op('wildcard', 'source', '10.0.1*'), op('gt', 'severity', 5)] }],
  ['not of an or mixing both', { not: { or: [eq('source', '10.0.3.3'), op('lt', 'bytes', 50_000)] } }],
  ['not of an and mixing both', { not: { and: [op('wildcard', 'source', '10.0.1*'), { exists: { target: 'host.name' } }] } }],
];

const ORDERS: [string, object][] = [
  ['source (declared)', { order: [{ target: 'source', mode: 'asc' }] }],
  [
    'timestamp descending, filtered on host.name',
    { where: op('wildcard', 'host.name', 'host-1*'), order: [{ target: 'timestamp', mode: 'desc' }] },
  ],
  ['host.name descending', { order: [{ target: 'host.name', mode: 'desc' }] }],
  ['host, objects and strings', { order: [{ target: 'host', mode: 'asc' }] }],
  ['bytes, numbers and lists', { order: [{ target: 'bytes', mode: 'asc' }] }],
  [
    'severity then source, filtered on source',
    { where: op('wildcard', 'source', '10.0.2*'), order: [{ target: 'severity', mode: 'desc' }, { target: 'source' }] },
  ],
  ['host.name then id descending', { order: [{ target: 'host.name' }, { target: 'id', mode: 'desc' }] }],
];

const WINDOWS: (object | undefined)[] = [
  undefined,
  { from: 0, to: 9 },
  { from: READ_PAGE_SIZE - 10, to: READ_PAGE_SIZE + 20 },
  { from: COUNT - 5, to: COUNT + 5 },
];

function expectedIds(where: object): string[] {
  const evaluator = new QueryEvaluator(parseRecordQuery({ where }, { allowSelect: true }).where!);
  return DOCS.filter((doc) => evaluator.matches(doc)).map((doc) => doc.id as string);
}

describe.each(databaseKinds())('events index only their declared paths, and answer every query exactly, on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;

  const ids = async (path: string, query: object) => {
    const response = await request(t.url).get(path).set('Authorization', bearer()).send(query);
    if (response.status === 404) return [];
    expect(response.status).toBe(200);
    return response.body.map((record: { id: string }) => record.id);
  };
  const valuePaths = async (family: string) => {
    const dataSource = t.app.get(DataSource);
    const rows = await dataSource.query(`SELECT DISTINCT path FROM ${NAMED_VALUE_ROWS} v WHERE family = '${family}' ORDER BY path`);
    return rows.map((row: { path: string }) => row.path);
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    t = await createTestApp(kind, { database, imports: [GadgetModule] });
    for (let start = 0; start < COUNT; start += 500) {
      const batch = DOCS.slice(start, start + 500);
      await request(t.url).post('/event').set('Authorization', bearer()).send(batch).expect(201);
      await request(t.url).post('/test/gadget').set('Authorization', bearer()).send(batch).expect(201);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('declares source, and the value table holds nothing else for events', async () => {
    expect(EVENT_FAMILY.indexedPaths).toEqual(['source']);
    expect(await valuePaths('event')).toEqual(['source']);
    expect(await valuePaths('gadget')).toEqual(expect.arrayContaining(['bytes', 'host', 'host.name', 'severity', 'source', 'timestamp']));
  });

  it('the query table is meaningful: all but `exists note` match some records, none all', () => {
    const sizes = WHERES.map(([, where]) => expectedIds(where).length);
    expect(sizes.filter((size) => size > 0 && size < COUNT)).toHaveLength(WHERES.length - 1);
  });

  it.each(WHERES)('where: %s', async (_name, where) => {
    const expected = expectedIds(where);
    expect(await ids('/event', { where })).toEqual(expected);
    expect(await ids('/test/gadget', { where })).toEqual(expected);
  });

  it('an equality that matches nothing answers the same 404 as a scan that matches nothing', async () => {
    const read = (where: object) => request(t.url).get('/event').set('Authorization', bearer()).send({ where });
    const none = await read(eq('source', 'nowhere'));
    const scanned = await read(op('reg_exp', 'source', 'nowhere'));
    expect(none.status).toBe(404);
    expect(scanned.status).toBe(404);
    expect(none.body).toEqual(scanned.body);
  });

  it('an equality read whole answers more than a page in arrival order, and a record holding the value twice once', async () => {
    const many = Array.from({ length: READ_PAGE_SIZE + 200 }, (_, k) => ({ ...eventDoc(k), id: `many-${k}`, source: 'many.example' }));
    const twice = [
      { ...eventDoc(1), id: 'twice-1', tags: ['dup', 'dup'] },
      { ...eventDoc(2), id: 'twice-2', tags: ['dup'] },
    ];
    try {
      for (let start = 0; start < many.length; start += 500) {
        await request(t.url)
          .post('/event')
          .set('Authorization', bearer())
          .send(many.slice(start, start + 500))
          .expect(201);
      }
      await request(t.url).post('/test/gadget').set('Authorization', bearer()).send(twice).expect(201);
      expect(await ids('/event', { where: eq('source', 'many.example') })).toEqual(many.map((doc) => doc.id));
      expect(await ids('/test/gadget', { where: eq('tags', 'dup') })).toEqual(['twice-1', 'twice-2']);
    } finally {
      await request(t.url)
        .delete('/event')
        .set('Authorization', bearer())
        .send({ where: eq('source', 'many.example') })
        .expect(205);
      await request(t.url)
        .delete('/test/gadget')
        .set('Authorization', bearer())
        .send({ where: eq('tags', 'dup') })
        .expect(205);
    }
  });

  it.each(WHERES.slice(-4))('where with windows across pages: %s', async (_name, where) => {
    const all = expectedIds(where);
    for (const limit of [
      { from: 3, to: 12 },
      { from: Math.max(0, all.length - 5), to: all.length + 5 },
    ]) {
      expect(await ids('/event', { where, limit })).toEqual(all.slice(limit.from, limit.to + 1));
    }
  });

  it.each(ORDERS)('order by %s, in every window, as SQL orders a complete index', async (_name, query) => {
    for (const limit of WINDOWS) {
      const windowed = { ...query, ...(limit && { limit }) };
      const bySql = await ids('/test/gadget', windowed);
      if (!limit) expect(bySql.length).toBeGreaterThan(100);
      expect({ windowed, ids: await ids('/event', windowed) }).toEqual({ windowed, ids: bySql });
    }
  });

  it('deletes by a filter and order on undeclared paths exactly', async () => {
    const query = { where: eq('host.name', 'host-7'), order: [{ target: 'bytes', mode: 'desc' }], limit: { from: 1, to: 5 } };
    const expected = await ids('/test/gadget', query);
    const response = await request(t.url).delete('/event').set('Authorization', bearer()).send(query);
    expect(response.status).toBe(205);
    expect(response.body.map((envelope: { message: string }) => envelope.message)).toEqual(
      expected.map((id: string) => `Event with id=${id} correctly deleted`),
    );
    expect(await ids('/event', { where: op('in', 'id', expected) })).toEqual([]);
  });

  it('a path declared after records were written is indexed for them at the next start', async () => {
    // As if source had been declared only now: the stored rows and setting lack it.
    const dataSource = t.app.get(DataSource);
    const sourceRows = valueRowsAt(dataSource, 'event', 'source');
    await dataSource.query(`DELETE FROM inventory_value WHERE ${sourceRows.sql}`, sourceRows.params);
    await dataSource.query(`UPDATE inventory_setting SET value = '[]' WHERE name = 'value_index:event'`);
    const where = op('lt', 'source', '10.0.2');
    expect(await ids('/event', { where })).toEqual([]);

    await t.close();
    t = await createTestApp(kind, { database, imports: [GadgetModule] });

    const remaining = await ids('/event', {});
    const expected = expectedIds(where).filter((id) => remaining.includes(id));
    expect(expected.length).toBeGreaterThan(0);
    expect(await ids('/event', { where })).toEqual(expected);
    // Declared paths, and the paths earlier queries taught the family (issue 10), rebuilt along and so ready.
    const [learned] = await t.app.get(DataSource).query("SELECT value FROM inventory_setting WHERE name = 'value_index_learned:event'");
    const { building, ready } = JSON.parse(learned.value) as { building: string[]; ready: string[] };
    expect(building).toEqual([]);
    const held = ['source', ...ready];
    const paths: string[] = await valuePaths('event');
    expect(paths.filter((path) => !held.some((top) => path === top || path.startsWith(`${top}.`)))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['source']));
  });
});
