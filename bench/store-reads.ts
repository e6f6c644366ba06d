/**
 * The store's reads alone, without HTTP: 10k events (bench/records.ts) in a fresh WAL file, as
 * the service opens it, read through SqliteRecordStore.read by ten callers at a time, as ten
 * clients' requests arrive together. Prints the CPU time of this process per read, for W1's
 * lookup by id and W3's filter on a declared path (10 matches): far less sensitive to other
 * work on the machine than req/s over HTTP.
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/store-reads.ts [rounds=3]
 */
import { SqliteRecordStore } from '../libs/crud/src/store/sqlite-record.store';
import { SelectionSpec } from '../libs/crud/src/store/record-selection';
import { ValueIndex } from '../libs/crud/src/store/value-index';
import { JsonObject } from '../libs/crud/src/core/query/query.types';
import { recordId, recordJson, sourceOf } from './records';
import { openBenchSqlite } from './sqlite-file';

const RECORDS = 10_000;
const TOGETHER = 10;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const { db, close } = openBenchSqlite('store-reads');
  const store = new SqliteRecordStore(db);
  const index = ValueIndex.of(['source', 'timestamp']);
  for (let from = 0; from < RECORDS; from += 1000) {
    const batch = Array.from({ length: 1000 }, (_, k) => {
      const doc = JSON.parse(recordJson(from + k)) as JsonObject;
      return { id: doc.id as string, doc };
    });
    await store.insert('event', batch, index);
  }
  // Spread over the family, as the load generator's picks are.
  const pick = (k: number): number => (k * 7919) % RECORDS;
  const workloads: [string, (k: number) => SelectionSpec, number][] = [
    ['W1 by id', (k) => ({ family: 'event', valueIndex: index, id: recordId(pick(k)), order: [], offset: 0 }), 100_000],
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
  ];
  const firstPage = async (spec: SelectionSpec): Promise<number> => {
    for await (const page of store.read(spec)) return page.length;
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
  close();
}

void main();
