import { DataSource } from 'typeorm';
import { parseRecordQuery, recordStoreFor, RecordStore, ValueIndex } from '@inventory/crud';
import { dataSourceOptions } from '../../apps/inventory/src/database/data-source-options';
import { createTestDatabase, databaseKinds, TestDatabase } from '../support/test-databases';

/**
 * Two stores on one database connection, as at start-up (the demo data's store beside the
 * service's): on PostgreSQL reads run as named statements, and a connection refuses a name that
 * stood for another text. Each store must read with whatever the other prepared.
 */
describe.each(databaseKinds())('two record stores sharing one connection on %s', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const index = ValueIndex.EVERY_PATH;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const options = dataSourceOptions(
      kind === 'sqlite' ? { type: 'sqlite', path: database.url.slice('sqlite:'.length) } : { type: 'postgres', url: database.url },
    );
    // One connection in the pool, so both stores' statements meet on it.
    dataSource = await new DataSource({ ...options, ...(kind === 'postgres' ? { extra: { max: 1 } } : {}) }).initialize();
    await dataSource.runMigrations({ transaction: 'all' });
    await recordStoreFor(dataSource).insert(
      'item',
      [1, 2, 3].map((n) => ({ id: `i${n}`, doc: { id: `i${n}`, name: `n${n}`, size: n } })),
      index,
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function ids(store: RecordStore, where: unknown): Promise<string[]> {
    const query = parseRecordQuery({ where }, { allowSelect: false });
    const found: string[] = [];
    for await (const page of store.read({ family: 'item', where: query.where, order: [], offset: 0, valueIndex: index })) {
      found.push(...page.map((row) => row.id));
    }
    return found;
  }

  it('answers each store with its own query, whichever prepared first', async () => {
    const [one, other] = [recordStoreFor(dataSource), recordStoreFor(dataSource)];
    const byName = { equals: { target: 'name', expr: 'n2' } };
    const bySize = { gt: { target: 'size', expr: 1 } };
    expect(await ids(one, byName)).toEqual(['i2']);
    expect(await ids(other, bySize)).toEqual(['i2', 'i3']);
    expect(await ids(other, byName)).toEqual(['i2']);
    expect(await ids(one, bySize)).toEqual(['i2', 'i3']);
  });
});
