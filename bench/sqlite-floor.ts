/**
 * What SQLite itself costs per event on the service's schema, part by part, with none of the
 * store's JavaScript: the floor under W4 on SQLite. Events (bench/records.ts) go in batches of
 * 1,000 into a fresh WAL file opened as the service opens it, each as its record row and one
 * value row per indexed path (`source` and `flow`, as in W4 after W3U), through
 * the multi-row statements the store uses (64 rows a statement; `--one-row` for one `run` per
 * row, as before b500376). Prints µs per event for the record rows, the value rows and the commit
 * (the WAL writes), and apart from them the checkpoints (taken every 40 batches, outside the
 * parts, as the service's worker takes them beside its writes), over the events after the first
 * `warm`.
 *
 * `--scattered` gives each event a random `source` address and a random `flow` word, instead of
 * values that climb with the event's number as the benchmark's do: each value then lands on a
 * leaf page of its own (eighth session, docs/performance-history.md).
 *
 * `--layout keyed` or `--layout bare` writes the value rows into another layout of the value
 * table instead, to weigh a schema change before building it: `keyed` is the service's layout as
 * WITHOUT ROWID, keyed by (path key, text, kind, seq), with a (seq, path key) index for deletes;
 * `bare` is `keyed` without that index (sixth session, docs/performance-history.md).
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/sqlite-floor.ts [events=300000] [warm=100000] [--one-row] [--scattered] [--layout keyed|bare]
 */
import type { Statement } from 'better-sqlite3';
import { parseArgs } from 'node:util';
import { INSERT_RECORDS, INSERT_VALUES, insertRows, MultiRowInsert, rowCounts } from '../libs/crud/src/store/sqlite-multi-row';
import { recordJson } from './records';
import { openBenchSqlite } from './sqlite-file';

const PATHS = ['source', 'flow'] as const;
const BATCH = 1000;

/** The value table a run writes: the service's, or a layout weighed against it (`--layout`). */
interface ValueLayout {
  schema?: string;
  insert: MultiRowInsert;
  /** Appends one value row's parameters: pushed in place, as the store lays them out. */
  push: (params: unknown[], seq: number, path: (typeof PATHS)[number], text: string) => void;
}

const KEYED_TABLE = `CREATE TABLE value_keyed (
  path_key INTEGER NOT NULL, text TEXT NOT NULL, kind TEXT NOT NULL, seq INTEGER NOT NULL, num REAL,
  PRIMARY KEY (path_key, text, kind, seq)) WITHOUT ROWID;
  CREATE INDEX value_keyed_num ON value_keyed (path_key, num, seq) WHERE num IS NOT NULL;`;
const KEYED_INSERT = new MultiRowInsert('INSERT OR FAIL INTO value_keyed (seq, path_key, kind, text, num)', 5);
const pushKeyed: ValueLayout['push'] = (params, seq, path, text) => {
  params.push(seq, PATHS.indexOf(path) + 1, 's', text, null);
};

const LAYOUTS: Record<string, ValueLayout> = {
  current: {
    insert: INSERT_VALUES,
    // The keys `inventory_value_path` would hand out; the store looks them up once per path.
    push: (params, seq, path, text) => {
      params.push(seq, PATHS.indexOf(path) + 1, 's', text, null);
    },
  },
  keyed: { schema: `${KEYED_TABLE} CREATE INDEX value_keyed_seq ON value_keyed (seq, path_key);`, insert: KEYED_INSERT, push: pushKeyed },
  bare: { schema: KEYED_TABLE, insert: KEYED_INSERT, push: pushKeyed },
};

function main(): void {
  const { values: options, positionals } = parseArgs({
    options: {
      'one-row': { type: 'boolean', default: false },
      scattered: { type: 'boolean', default: false },
      layout: { type: 'string', default: 'current' },
    },
    allowPositionals: true,
  });
  const oneRow = options['one-row'];
  const layout = LAYOUTS[options.layout];
  if (!layout) throw new Error(`--layout is one of ${Object.keys(LAYOUTS).join(', ')}`);
  if (oneRow && layout !== LAYOUTS.current) throw new Error("--one-row times the service's own value table only");
  const events = Number(positionals[0] ?? 300_000);
  const warm = Number(positionals[1] ?? 100_000);
  const { db, close } = openBenchSqlite('sqlite-floor');
  // Checkpoints are taken below, outside the measured parts.
  db.pragma('wal_autocheckpoint = 0');
  if (layout.schema) db.exec(layout.schema);
  const insertRecord = db.prepare('INSERT INTO inventory_record (family, id, doc) VALUES (?, ?, ?) ON CONFLICT (family, id) DO NOTHING');
  const insertValue = db.prepare('INSERT INTO inventory_value (seq, path_key, kind, text, num) VALUES (?, ?, ?, ?, ?)');
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
      for (const path of PATHS) layout.push(params, seqs[k], path, doc[path]);
    });
    insertRows(layout.insert, params, prepare);
  };
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const spent = { stringify: 0n, records: 0n, values: 0n, commit: 0n, checkpoints: 0n };
  let measured = 0;
  for (let from = 0; from < events; from += BATCH) {
    const docs = Array.from({ length: BATCH }, (_, k) => JSON.parse(recordJson(from + k)) as Record<string, string>);
    if (options.scattered) for (const doc of docs) scatter(doc);
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
        for (const path of PATHS) insertValue.run(seqs[k], PATHS.indexOf(path) + 1, 's', doc[path], null);
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
    // Outside the parts, as the checkpoint worker takes them in the service.
    if ((from / BATCH) % 40 === 39) {
      const started = process.hrtime.bigint();
      db.pragma('wal_checkpoint(PASSIVE)');
      if (from >= warm) spent.checkpoints += process.hrtime.bigint() - started;
    }
  }
  close();
  const perEvent = (nanoseconds: bigint) => (Number(nanoseconds) / 1000 / measured).toFixed(2);
  const total = spent.stringify + spent.records + spent.values + spent.commit;
  process.stdout.write(
    `${options.layout} value table: µs per event over events ${warm.toLocaleString('en')}–${events.toLocaleString('en')}: ` +
      `JSON.stringify ${perEvent(spent.stringify)}, record rows ${perEvent(spent.records)}, ` +
      `${PATHS.length} value rows ${perEvent(spent.values)}, commit ${perEvent(spent.commit)}; ` +
      `total ${perEvent(total)} (${Math.round((measured * 1e9) / Number(total)).toLocaleString('en')} events/s); ` +
      `checkpoints ${perEvent(spent.checkpoints)}${options.scattered ? ' (values scattered)' : ''}\n`,
  );
}

/** A random address for `source` and a random word for `flow`, where the benchmark's climb with the event's number. */
function scatter(doc: Record<string, string>): void {
  const byte = () => Math.floor(Math.random() * 256);
  doc.source = `10.${byte()}.${byte()}.${byte()}`;
  doc.flow = Math.random().toString(36).slice(2, 12);
}

main();
