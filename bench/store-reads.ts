/**
 * The store's reads alone, without HTTP: 10k events (bench/records.ts) in a fresh database
 * (SQLite as the service opens it; PostgreSQL when BENCH_DATABASE_URL is set, migrated as the
 * service migrates it), read through the store by ten callers at a time, as ten clients'
 * requests arrive together, each with a query budget as the service gives it. Prints the CPU
 * time of this process per read, for W1's lookup by id, W3's filter on a declared path and
 * W3U's on `flow`, a path the family learns after its records were written (10 matches each):
 * far less sensitive to other work on the machine than req/s over HTTP. On PostgreSQL the
 * database's own CPU is not in it. Prints first how long `flow`'s rows took to build, idle.
 *
 *   [STORE_READS_RECORDS=1000000] [STORE_READS_ONE_QUERY=1] npx ts-node --transpile-only -r tsconfig-paths/register bench/store-reads.ts [rounds=3]
 */
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../apps/inventory/src/database/data-source-options';
import { QueryBudget } from '../libs/crud/src/core/query/query-budget';
import { JsonObject } from '../libs/crud/src/core/query/query.types';
import { recordStoreFor } from '../libs/crud/src/nest/store-factory';
import { LearnedValueIndex } from '../libs/crud/src/store/learned-index';
import { SelectionSpec } from '../libs/crud/src/store/record-selection';
import { RecordStore } from '../libs/crud/src/store/record-store';
import { SqliteRecordStore } from '../libs/crud/src/store/sqlite-record.store';
import { ValueIndex } from '../libs/crud/src/store/value-index';
import { freshDatabase } from './database';
import { flowOf, recordId, recordJson, sourceOf } from './records';
import { openBenchSqlite } from './sqlite-file';

/** STORE_READS_RECORDS=1000000 for the scaling run's family size. */
const RECORDS = Number(process.env.STORE_READS_RECORDS ?? 10_000);
const TOGETHER = 10;
/** STORE_READS_ONE_QUERY=1: every read of a workload asks for the same record or value (clients polling one query). */
const ONE_QUERY = process.env.STORE_READS_ONE_QUERY === '1';
/** The service's default (INVENTORY_QUERY_TIMEOUT). */
const QUERY_BUDGET_MS = 10_000;

async function openStore(): Promise<{ store: RecordStore; close: () => Promise<void> }> {
  if (!process.env.BENCH_DATABASE_URL) {
    const { db, close } = openBenchSqlite('store-reads');
    return { store: new SqliteRecordStore(db), close: async () => close() };
  }
  const database = await freshDatabase('store-reads');
  const dataSource = await new DataSource(dataSourceOptions({ type: 'postgres', url: database.url })).initialize();
  await dataSource.runMigrations({ transaction: 'all' });
  return {
    store: recordStoreFor(dataSource),
    close: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const { store, close } = await openStore();
  const index = ValueIndex.of(['source']);
  for (let from = 0; from < RECORDS; from += 1000) {
    const batch = Array.from({ length: 1000 }, (_, k) => {
      const doc = JSON.parse(recordJson(from + k)) as JsonObject;
      return { id: doc.id as string, doc };
    });
    await store.insert('event', batch, index);
  }
  // As the service learns a path a query names: its rows for the records already written are built afterwards.
  const learned = new LearnedValueIndex(store, 'event', index);
  await learned.start();
  const learning = performance.now();
  await learned.forQuery({ kind: 'compare', op: 'equals', path: ['flow'], value: flowOf(0) }, []);
  await learned.settled();
  console.log(
    `flow learned: its rows for ${RECORDS.toLocaleString('en-US')} records built in ${(performance.now() - learning).toFixed(0)} ms`,
  );
  const withFlow = learned.current;
  if (!withFlow.covers(['flow'])) throw new Error('flow was not learned');
  // Spread over the family, as the load generator's picks are; or, as with `npm run bench -- --w3-one-query`, one query.
  const pick = ONE_QUERY ? (): number => Math.floor(RECORDS / 2) : (k: number): number => (k * 7919) % RECORDS;
  const workloads: [string, (k: number) => SelectionSpec, number][] = [
    ['W1 by id', (k) => ({ family: 'event', valueIndex: index, id: recordId(pick(k)), order: [], offset: 0 }), 50_000],
    [
      'W3 source == …',
      (k) => ({
        family: 'event',
        valueIndex: index,
        where: { kind: 'compare', op: 'equals', path: ['source'], value: sourceOf(pick(k)) },
        order: [],
        offset: 0,
      }),
      20_000,
    ],
    [
      'W3U flow == … (learned)',
      (k) => ({
        family: 'event',
        valueIndex: withFlow,
        where: { kind: 'compare', op: 'equals', path: ['flow'], value: flowOf(pick(k)) },
        order: [],
        offset: 0,
      }),
      20_000,
    ],
  ];
  const firstPage = async (spec: SelectionSpec): Promise<number> => {
    for await (const page of store.read({ ...spec, budget: new QueryBudget(QUERY_BUDGET_MS) })) return page.length;
    return 0;
  };
  for (const [label, spec, reads] of workloads) {
    const figures: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const cpu = process.cpuUsage();
      for (let k = 0; k < reads; k += TOGETHER) {
        const found = await Promise.all(Array.from({ length: TOGETHER }, (_, j) => firstPage(spec(k + j))));
        if (found.some((rows) => rows === 0)) throw new Error(`${label}: a read found nothing`);
      }
      const used = process.cpuUsage(cpu);
      figures.push(((used.user + used.system) / reads).toFixed(1));
    }
    process.stdout.write(`${label}: ${figures.join(', ')} µs of CPU per read\n`);
  }
  await close();
}

void main();
