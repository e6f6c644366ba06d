/**
 * What the value rows of W4 would cost in SQLite under other layouts of the value table: the
 * measurement behind the next step README "Performance" names for W4 (an integer key per
 * family and path, so that an index entry is a few bytes, not the family's and path's text).
 * Like `sqlite-floor.ts`, with none of the store's JavaScript: events (bench/records.ts) go in
 * batches of 1,000 into a fresh WAL file, each as its record row and three value rows
 * (`source`, `timestamp`, `flow`), 64 rows a statement; it prints µs per event for the value
 * rows and the commit, over the events after the first `warm`. The layouts:
 *
 *   current  the service's table: rowid, the (family, path, text, seq) and (seq, path) indexes
 *   keyed    WITHOUT ROWID, key (path key, text, kind, seq), and a (seq, path key) index for deletes
 *   bare     `keyed` without the (seq, path key) index: what deletes would then have to do without
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/value-layouts.ts [layout=current] [events=300000] [warm=100000]
 */
import type { Statement } from 'better-sqlite3';
import { INSERT_RECORDS, INSERT_VALUES, insertRows, MultiRowInsert, rowCounts } from '../libs/crud/src/store/sqlite-multi-row';
import { recordJson } from './records';
import { openBenchSqlite } from './sqlite-file';

const PATHS = ['source', 'timestamp', 'flow'] as const;
const BATCH = 1000;

interface Layout {
  /** Run after the service's schema is in place; `current` writes the service's own table. */
  schema: string;
  insert: MultiRowInsert;
  row: (seq: number, path: (typeof PATHS)[number], text: string) => unknown[];
}

const KEYED_TABLE = `CREATE TABLE value_keyed (
  path_key INTEGER NOT NULL, text TEXT NOT NULL, kind TEXT NOT NULL, seq INTEGER NOT NULL, num REAL,
  PRIMARY KEY (path_key, text, kind, seq)) WITHOUT ROWID;
  CREATE INDEX value_keyed_num ON value_keyed (path_key, num, seq) WHERE num IS NOT NULL;`;
const KEYED_INSERT = new MultiRowInsert('INSERT OR FAIL INTO value_keyed (seq, path_key, kind, text, num)', 5);
const keyedRow = (seq: number, path: (typeof PATHS)[number], text: string): unknown[] => [seq, PATHS.indexOf(path) + 1, 's', text, null];

const LAYOUTS: Record<string, Layout> = {
  current: { schema: '', insert: INSERT_VALUES, row: (seq, path, text) => [seq, 'event', path, 's', text, null] },
  keyed: { schema: `${KEYED_TABLE} CREATE INDEX value_keyed_seq ON value_keyed (seq, path_key);`, insert: KEYED_INSERT, row: keyedRow },
  bare: { schema: KEYED_TABLE, insert: KEYED_INSERT, row: keyedRow },
};

function main(): void {
  const [name = 'current', eventsArg, warmArg] = process.argv.slice(2);
  const layout = LAYOUTS[name];
  if (!layout) throw new Error(`layout is one of ${Object.keys(LAYOUTS).join(', ')}`);
  const events = Number(eventsArg ?? 300_000);
  const warm = Number(warmArg ?? 100_000);
  const { db, close } = openBenchSqlite(`value-layouts-${name}`);
  db.pragma('wal_autocheckpoint = 0');
  if (layout.schema) db.exec(layout.schema);
  const prepared = new Map<string, Statement>();
  const prepare = (sql: string) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql)!;
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  let values = 0n;
  let committing = 0n;
  let measured = 0;
  for (let from = 0; from < events; from += BATCH) {
    const docs = Array.from({ length: BATCH }, (_, k) => JSON.parse(recordJson(from + k)) as Record<string, string>);
    begin.run();
    const seqs: number[] = [];
    let at = 0;
    for (const count of rowCounts(BATCH)) {
      const params = docs.slice(at, at + count).flatMap((doc) => ['event', doc.id, JSON.stringify(doc)]);
      const last = Number(prepare(INSERT_RECORDS.sql(count)).run(...params).lastInsertRowid);
      for (let k = 0; k < count; k++) seqs.push(last - count + 1 + k);
      at += count;
    }
    const t0 = process.hrtime.bigint();
    insertRows(
      layout.insert,
      docs.flatMap((doc, k) => PATHS.flatMap((path) => layout.row(seqs[k], path, doc[path]))),
      prepare,
    );
    const t1 = process.hrtime.bigint();
    commit.run();
    const t2 = process.hrtime.bigint();
    if (from >= warm) {
      values += t1 - t0;
      committing += t2 - t1;
      measured += BATCH;
    }
    if ((from / BATCH) % 40 === 39) db.pragma('wal_checkpoint(PASSIVE)');
  }
  close();
  const perEvent = (nanoseconds: bigint) => (Number(nanoseconds) / 1000 / measured).toFixed(2);
  process.stdout.write(
    `${name}: µs per event over events ${warm.toLocaleString('en')}–${events.toLocaleString('en')}: ` +
      `${PATHS.length} value rows ${perEvent(values)} (parameters laid out included), commit ${perEvent(committing)}\n`,
  );
}

main();
