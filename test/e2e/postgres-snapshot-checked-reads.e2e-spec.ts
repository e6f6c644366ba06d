import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { JoinedRecords, READ_PAGE_SIZE, recordStoreFor, RecordStore, SelectionSpec, ValueIndex } from '@inventory/crud';
import { MIGRATIONS } from '../../apps/inventory/src/database/data-source-options';
import { migratingPostgresDatabase } from '../support/migrating-database';
import { describeOnPostgres } from '../support/test-databases';

/**
 * On PostgreSQL an equality read whole is answered again from what this process read before,
 * once a statement sent after the read arrived shows the same snapshot (SnapshotCheckedReads):
 * here, on a real database, that the kept answer is used (no statement reads the records again)
 * and that any commit, from this store or another connection, makes the next read read again.
 */
describeOnPostgres('equality answers checked by snapshot on %s', 'read equality answers on PostgreSQL', () => {
  const database = migratingPostgresDatabase();
  let dataSource: DataSource;
  let store: RecordStore;
  /** Statements that read records as one joined row (`postgresJoinedDocsSql`), and snapshot checks. */
  const sent = { joined: 0, snapshots: 0 };
  const index = ValueIndex.of(['source']);
  const bySource = (source: string): SelectionSpec => ({
    family: 'event',
    valueIndex: index,
    where: { kind: 'compare', op: 'equals', path: ['source'], value: source },
    order: [],
    offset: 0,
  });
  const ids = async (source: string): Promise<string[]> => {
    const answer = await store.readWhole(bySource(source));
    expect(answer).toBeInstanceOf(JoinedRecords);
    const { docs } = answer as JoinedRecords;
    return docs === '' ? [] : (JSON.parse(`[${docs}]`) as { id: string }[]).map((record) => record.id);
  };

  beforeAll(async () => {
    dataSource = await database.open(MIGRATIONS);
    await dataSource.runMigrations({ transaction: 'all' });
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const counted = new WeakSet<PoolClient>();
    pool.on('acquire', (client) => {
      if (counted.has(client)) return;
      counted.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string }).text ?? '');
        if (text.includes('string_agg(j.doc')) sent.joined++;
        else if (text.includes('pg_current_snapshot()')) sent.snapshots++;
        return query(...args);
      };
    });
    store = recordStoreFor(dataSource);
    await store.insert(
      'event',
      ['a', 'b', 'c'].map((id) => ({ id, doc: { id, source: id === 'c' ? '10.0.0.2' : '10.0.0.1' } })),
      index,
    );
  });

  it('reads once, then answers from the kept answer after one snapshot statement each time', async () => {
    expect(await ids('10.0.0.1')).toEqual(['a', 'b']);
    expect(sent).toEqual({ joined: 1, snapshots: 0 });
    expect(await ids('10.0.0.1')).toEqual(['a', 'b']);
    expect(await ids('10.0.0.1')).toEqual(['a', 'b']);
    expect(sent).toEqual({ joined: 1, snapshots: 2 });
  });

  it('ten reads at once share their snapshot statements and read no record', async () => {
    const before = { ...sent };
    const answers = await Promise.all(Array.from({ length: 10 }, () => ids('10.0.0.1')));
    expect(answers).toEqual(Array.from({ length: 10 }, () => ['a', 'b']));
    expect(sent.joined).toBe(before.joined);
    expect(sent.snapshots - before.snapshots).toBeGreaterThanOrEqual(1);
    expect(sent.snapshots - before.snapshots).toBeLessThanOrEqual(2);
  });

  it('reads again after a commit through another connection, one the store never saw', async () => {
    const before = sent.joined;
    // A record moves to another source by SQL alone: only the snapshot can tell this process.
    await dataSource.query(
      `UPDATE inventory_value SET text = '10.0.0.9' WHERE seq = (SELECT seq FROM inventory_record WHERE family = 'event' AND id = 'b')`,
    );
    expect(await ids('10.0.0.1')).toEqual(['a']);
    expect(sent.joined).toBe(before + 1);
    expect(await ids('10.0.0.1')).toEqual(['a']);
    expect(sent.joined).toBe(before + 1);
  });

  it('reads again after its own write, and after a commit that changed nothing it reads', async () => {
    await store.insert('event', [{ id: 'd', doc: { id: 'd', source: '10.0.0.1' } }], index);
    expect(await ids('10.0.0.1')).toEqual(['a', 'd']);
    const before = sent.joined;
    await dataSource.query(`INSERT INTO inventory_setting (name, value) VALUES ('unrelated', 'x')`);
    expect(await ids('10.0.0.1')).toEqual(['a', 'd']);
    expect(sent.joined).toBe(before + 1);
  });

  it('over a page of matches: kept as a refusal, so a read again goes page by page without the joined statement', async () => {
    const many = Array.from({ length: READ_PAGE_SIZE + 1 }, (_, k) => ({ id: `many-${k}`, doc: { id: `many-${k}`, source: '10.0.0.5' } }));
    await store.insert('event', many, index);
    const pagedIds = async (): Promise<string[]> => {
      const answer = await store.readWhole(bySource('10.0.0.5'));
      expect(answer).not.toBeInstanceOf(JoinedRecords);
      const read: string[] = [];
      for await (const page of answer as AsyncIterable<{ id: string }[]>) read.push(...page.map((row) => row.id));
      return read;
    };
    const expected = many.map((record) => record.id);
    expect(await pagedIds()).toEqual(expected);
    const before = sent.joined;
    expect(await pagedIds()).toEqual(expected);
    expect(sent.joined).toBe(before);
  });

  it('a read that finds nothing is kept too', async () => {
    expect(await ids('10.0.0.7')).toEqual([]);
    const before = sent.joined;
    expect(await ids('10.0.0.7')).toEqual([]);
    expect(sent.joined).toBe(before);
  });
});
