import { DataSource } from 'typeorm';
import { JsonObject, recordStoreFor, RecordStore, ValueIndex } from '@inventory/crud';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { createTestDatabase, describeOnPostgres, TestDatabase } from '../support/test-databases';

/**
 * A build page clears the rows its records already have of the path (a restarted build, or a
 * write since the path was learned) as one range of sequence numbers, from after the page's
 * start to its last record. Sequence numbers are shared by every family, so the range also holds
 * other families' records: their rows must stay, and no event may end with a row twice.
 * (libs/crud/src/store/learned-index.spec.ts checks the same on SQLite.)
 */
describeOnPostgres("a learned path's build pages on %s", "check PostgreSQL's learned-path build", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: RecordStore;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dataSource = await new DataSource(dataSourceOptions({ type: 'postgres', url: database.url })).initialize();
    await dataSource.runMigrations({ transaction: 'all' });
    store = recordStoreFor(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const insert = (family: string, docs: JsonObject[], index: ValueIndex) =>
    store.insert(
      family,
      docs.map((doc) => ({ id: doc.id as string, doc })),
      index,
    );
  const rows = async (family: string, path: string): Promise<number> => {
    const [{ count }] = await dataSource.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM inventory_value v JOIN inventory_value_path p ON p.key = v.path_key
       WHERE p.family = $1 AND p.path = $2`,
      [family, path],
    );
    return count;
  };
  const withLevel = (id: string): JsonObject => ({ id, severity: { level: id } });

  it("replaces the path's rows of its own family's records only, in pages side by side, though other families' records lie between", async () => {
    const declared = ValueIndex.of(['source']);
    const otherIndex = ValueIndex.of(['severity']);
    const events = Array.from({ length: 2500 }, (_, i) => ({ id: `e${i}`, source: `s${i % 10}`, severity: i % 3 ? 'info' : 'critical' }));
    await store.adoptValueIndex('event', declared);
    await insert('event', events.slice(0, 1200), declared);
    await insert('other', [withLevel('o1'), withLevel('o2')], otherIndex);
    await insert('event', events.slice(1200), declared);
    await insert('other', [withLevel('o3')], otherIndex);
    // An event whose rows of the path exist already, as a write after the path was learned leaves them.
    await insert('event', [withLevel('e-indexed')], ValueIndex.of(['source', 'severity']));
    const otherRows = [await rows('other', 'severity'), await rows('other', 'severity.level')];
    expect(otherRows).toEqual([3, 3]);
    expect(await rows('event', 'severity.level')).toBe(1);

    const lastSeq = await store.lastSeq('event');
    // Pages of 1,000, taken two at a time: the last build call ends at the family's last record.
    let after: number | undefined = 0;
    while (after !== undefined && after < lastSeq) after = await store.buildLearnedRows('event', 'severity', after, lastSeq, 1000, 60_000);

    expect([await rows('other', 'severity'), await rows('other', 'severity.level')]).toEqual(otherRows);
    // One row per event's value, and for the object its field's too: none twice, none missing.
    expect(await rows('event', 'severity')).toBe(events.length + 1);
    expect(await rows('event', 'severity.level')).toBe(1);
  });
});
