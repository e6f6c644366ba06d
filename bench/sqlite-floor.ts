/**
 * What SQLite itself costs per event on the service's schema, part by part, with none of the
 * store's JavaScript: the floor under W4 on SQLite. Events (bench/records.ts) go in batches of
 * 1,000 into a fresh WAL file opened as the service opens it, each as its record row and one
 * value row per indexed path (`source`, `timestamp` and `flow`, as in W4 after W3U), through
 * the multi-row statements the store uses (64 rows a statement; `--one-row` for one `run` per
 * row, as before b500376). Prints µs per event for the record rows, the value rows and the commit
 * (the WAL writes; checkpoints are left to the end, as the service's worker takes them), over
 * the events after the first `warm`.
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/sqlite-floor.ts [events=300000] [warm=100000] [--one-row]
 */
import type { Statement } from 'better-sqlite3';
import { INSERT_RECORDS, INSERT_VALUES, insertRows, rowCounts } from '../libs/crud/src/store/sqlite-multi-row';
import { recordJson } from './records';
import { openBenchSqlite } from './sqlite-file';

const PATHS = ['source', 'timestamp', 'flow'] as const;
const BATCH = 1000;

function main(): void {
  const args = process.argv.slice(2).filter((arg) => arg !== '--one-row');
  const oneRow = process.argv.includes('--one-row');
  const events = Number(args[0] ?? 300_000);
  const warm = Number(args[1] ?? 100_000);
  const { db, close } = openBenchSqlite('sqlite-floor');
  // Checkpoints are taken below, outside the measured parts.
  db.pragma('wal_autocheckpoint = 0');
  const insertRecord = db.prepare('INSERT INTO inventory_record (family, id, doc) VALUES (?, ?, ?) ON CONFLICT (family, id) DO NOTHING');
  const insertValue = db.prepare('INSERT INTO inventory_value (seq, family, path, kind, text, num) VALUES (?, ?, ?, ?, ?, ?)');
  // Prepared once per row count, as the store's statement cache keeps them.
  const prepared = new Map<string, Statement>();
  const prepare = (sql: string) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql)!;
  const insertRecordRuns = (docs: Record<string, string>[], texts: string[]): number[] => {
    const seqs: number[] = [];
    let at = 0;
    for (const count of rowCounts(docs.length)) {
      const run = docs.slice(at, at + count);
      const params: unknown[] = [];
      run.forEach((doc, k) => params.push('event', doc.id, texts[at + k]));
      // Every id is new, so the rows' seqs are the `count` ending at lastInsertRowid, as the store takes them.
      const last = Number(prepare(INSERT_RECORDS.sql(count)).run(...params).lastInsertRowid);
      for (let k = 0; k < count; k++) seqs.push(last - count + 1 + k);
      at += count;
    }
    return seqs;
  };
  const insertValueRuns = (docs: Record<string, string>[], seqs: number[]): void => {
    const params: unknown[] = [];
    docs.forEach((doc, k) => {
      for (const path of PATHS) params.push(seqs[k], 'event', path, 's', doc[path], null);
    });
    insertRows(INSERT_VALUES, params, prepare);
  };
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const spent = { stringify: 0n, records: 0n, values: 0n, commit: 0n };
  let measured = 0;
  for (let from = 0; from < events; from += BATCH) {
    const docs = Array.from({ length: BATCH }, (_, k) => JSON.parse(recordJson(from + k)) as Record<string, string>);
    const t0 = process.hrtime.bigint();
    const texts = docs.map((doc) => JSON.stringify(doc));
    const t1 = process.hrtime.bigint();
    begin.run();
    const seqs = oneRow
      ? docs.map((doc, k) => Number(insertRecord.run('event', doc.id, texts[k]).lastInsertRowid))
      : insertRecordRuns(docs, texts);
    const t2 = process.hrtime.bigint();
    if (oneRow) {
      docs.forEach((doc, k) => {
        for (const path of PATHS) insertValue.run(seqs[k], 'event', path, 's', doc[path], null);
      });
    } else {
      insertValueRuns(docs, seqs);
    }
    const t3 = process.hrtime.bigint();
    commit.run();
    const t4 = process.hrtime.bigint();
    if (from >= warm) {
      spent.stringify += t1 - t0;
      spent.records += t2 - t1;
      spent.values += t3 - t2;
      spent.commit += t4 - t3;
      measured += BATCH;
    }
    // Outside the measured parts, as the checkpoint worker takes them in the service.
    if ((from / BATCH) % 40 === 39) db.pragma('wal_checkpoint(PASSIVE)');
  }
  close();
  const perEvent = (nanoseconds: bigint) => (Number(nanoseconds) / 1000 / measured).toFixed(2);
  const total = spent.stringify + spent.records + spent.values + spent.commit;
  process.stdout.write(
    `µs per event over events ${warm.toLocaleString('en')}–${events.toLocaleString('en')}: ` +
      `JSON.stringify ${perEvent(spent.stringify)}, record rows ${perEvent(spent.records)}, ` +
      `${PATHS.length} value rows ${perEvent(spent.values)}, commit ${perEvent(spent.commit)}; ` +
      `total ${perEvent(total)} (${Math.round((measured * 1e9) / Number(total)).toLocaleString('en')} events/s)\n`,
  );
}

main();
