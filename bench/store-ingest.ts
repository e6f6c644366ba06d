/**
 * The store alone, without HTTP: events (bench/records.ts) inserted through
 * SqliteRecordStore.insert in batches of 1,000 into a fresh WAL file, as the service opens it
 * (`prepareSqliteConnection`), with events' declared index plus `flow` (as
 * after W3U has taught it). Prints records/s per slice of the growing family, by the clock and
 * per CPU second of this process (the latter far less sensitive to other work on the machine).
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/store-ingest.ts [records=200000] [slice=50000]
 */
import { SqliteRecordStore } from '../libs/crud/src/store/sqlite-record.store';
import { ValueIndex } from '../libs/crud/src/store/value-index';
import { JsonObject } from '../libs/crud/src/core/query/query.types';
import { recordJson } from './records';
import { openBenchSqlite } from './sqlite-file';

async function main(): Promise<void> {
  const records = Number(process.argv[2] ?? 200_000);
  const slice = Number(process.argv[3] ?? 50_000);
  const { db, close } = openBenchSqlite('store-ingest');
  const store = new SqliteRecordStore(db);
  const index = ValueIndex.of(['source', 'flow']);
  await store.adoptValueIndex('event', index);
  const figures: string[] = [];
  let started = process.hrtime.bigint();
  let cpu = process.cpuUsage();
  for (let from = 0; from < records; from += 1000) {
    const batch = Array.from({ length: 1000 }, (_, k) => {
      const doc = JSON.parse(recordJson(from + k)) as JsonObject;
      return { id: doc.id as string, doc };
    });
    await store.insert('event', batch, index);
    if ((from + 1000) % slice === 0) {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      figures.push(
        `${((from + 1000 - slice) / 1000).toFixed(0)}k–${((from + 1000) / 1000).toFixed(0)}k: ${Math.round(slice / seconds).toLocaleString('en')} records/s, ` +
          `${Math.round(slice / cpuSeconds).toLocaleString('en')} records per CPU second`,
      );
      started = process.hrtime.bigint();
      cpu = process.cpuUsage();
    }
  }
  close();
  process.stdout.write(`${figures.join('\n')}\n`);
}

void main();
