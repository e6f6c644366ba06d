/**
 * Query shapes beyond W3: each one's latency over HTTP against the service holding N events
 * (bench/records.ts; default 100k), next to an in-memory scan of the same events with the
 * service's own evaluator (parse nothing, filter, sort, window, serialize: what a server that
 * keeps the records as objects in memory, like bench/raw-server.ts, does per query). A shape
 * slower than that scan by a wide margin is a cliff; W1–W4 (`npm run bench`) cannot show one,
 * as each runs one shape. Sequential requests, one at a time: a latency, not a throughput.
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/query-shapes.ts [records=100000] [name part]
 *   BENCH_DATABASE_URL=postgres://… (same)   # on PostgreSQL
 *
 * Paths events do not declare are learned by their first query and built in the background:
 * each shape is asked once, and timed once no path is still being built and a second has passed
 * (first-query latency is printed apart).
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { sign } from 'jsonwebtoken';
import { parseRecordQuery } from '../libs/crud/src/core/query/query-parser';
import { QueryEvaluator } from '../libs/crud/src/core/query/query-evaluator';
import { JsonObject } from '../libs/crud/src/core/query/query.types';
import { MemoryOrder } from '../libs/crud/src/store/memory-order';
import { learnedPathsSettingName, parseLearnedPaths } from '../libs/crud/src/store/value-index';
import { freshDatabase } from './database';
import { buildService, startService } from './processes';
import { batchBody, recordJson } from './records';
import { median } from './statistics';

const RECORDS = Number(process.argv[2] ?? 100_000);
/** Only the shapes whose name holds this text (all when absent): to time one change quickly. */
const ONLY = process.argv[3];
const REPEATS = 7;
const SETTLE_MS = 1_000;
/** The longest a path first named by a shape may take to build before the shape is timed anyway. */
const BUILD_WAIT_MS = 120_000;

const eq = (target: string, expr: unknown) => ({ equals: { target, expr } });
const SHAPES: [string, Record<string, unknown>][] = [
  ['equality, declared path (10 hits)', { where: eq('source', '10.0.0.7') }],
  ['equality, undeclared path, first 10 of 20 %', { where: eq('severity', 'error'), limit: { from: 0, to: 9 } }],
  ['equality, nested undeclared path, first 10', { where: eq('payload.dst_port', 22), limit: { from: 0, to: 9 } }],
  ['equality in a list (`tags`) and a number', { where: { and: [eq('tags', 'udp'), eq('packets', 7)] } }],
  ['in of 20 values, declared path', { where: { in: { target: 'source', expr: Array.from({ length: 20 }, (_, i) => `10.0.${i}.1`) } } }],
  ['in of a text and a number', { where: { in: { target: 'packets', expr: ['5', 977] } } }],
  ['numeric range (0.1 % of records)', { where: { gt: { target: 'bytes', expr: 999_000 } } }],
  [
    'time window, 5 s at the start of the day',
    {
      where: {
        and: [{ gte: { target: 'timestamp', expr: '2026-11-21T00:01:00' } }, { lt: { target: 'timestamp', expr: '2026-11-21T00:01:05' } }],
      },
    },
  ],
  [
    'time window, 5 s at midday',
    {
      where: {
        and: [{ gte: { target: 'timestamp', expr: '2026-11-21T12:00:00' } }, { lt: { target: 'timestamp', expr: '2026-11-21T12:00:05' } }],
      },
    },
  ],
  ['broad range, first 10', { where: { gt: { target: 'bytes', expr: 100 } }, limit: { from: 0, to: 9 } }],
  ['wildcard with a prefix', { where: { wildcard: { target: 'host', expr: 'host-00012*' } } }],
  ['reg_exp with a literal prefix', { where: { reg_exp: { target: 'host', expr: 'host-00012[0-9]' } } }],
  ['reg_exp with an inner literal only', { where: { reg_exp: { target: 'host', expr: '.*-00012[0-9]' } } }],
  // No text every match holds: each of the ~95k distinct hosts goes through the pattern.
  ['reg_exp with no literal', { where: { reg_exp: { target: 'host', expr: '[a-z]+.[01][01][0-2][0-9]{2}[0-5]' } } }],
  ['or of two paths', { where: { or: [eq('host', 'host-000123'), eq('packets', 5)] } }],
  ['not, first 10', { where: { not: eq('severity', 'info') }, limit: { from: 0, to: 9 } }],
  ['latest 10 by timestamp', { order: [{ target: 'timestamp', mode: 'desc' }], limit: { from: 0, to: 9 } }],
  [
    'filter, then smallest 10 by bytes',
    { where: eq('severity', 'debug'), order: [{ target: 'bytes', mode: 'asc' }], limit: { from: 0, to: 9 } },
  ],
  ['a page in the middle (no filter)', { limit: { from: RECORDS / 2, to: RECORDS / 2 + 9 } }],
];

/**
 * Waits until no path of the events family is still being built (a path first named by a query
 * is learned and its rows built in the background; until then the query is answered by the
 * in-memory evaluator, and on PostgreSQL a build of 100k events' tags took longer than a fixed
 * settle of 3 s, so the shape was timed as a scan). Reads the learned-paths setting directly.
 */
async function pathsBuilt(url: string): Promise<void> {
  const name = learnedPathsSettingName('event');
  const building = async (): Promise<number> => {
    if (url.startsWith('sqlite:')) {
      const db = new Database(url.slice('sqlite:'.length), { readonly: true });
      try {
        const row = db.prepare('SELECT value FROM inventory_setting WHERE name = ?').get(name) as { value: string } | undefined;
        return parseLearnedPaths(row?.value).building.length;
      } finally {
        db.close();
      }
    }
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const result = await client.query<{ value: string }>('SELECT value FROM inventory_setting WHERE name = $1', [name]);
      return parseLearnedPaths(result.rows[0]?.value).building.length;
    } finally {
      await client.end();
    }
  };
  const deadline = Date.now() + BUILD_WAIT_MS;
  while ((await building()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
}

function elapsedMs(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}

/** The in-memory answer: evaluate every record, order if asked, cut the window, serialize. */
function scan(records: readonly JsonObject[], body: Record<string, unknown>): { ms: number; matches: number } {
  const started = process.hrtime.bigint();
  const query = parseRecordQuery(body, { allowSelect: true });
  const evaluator = query.where ? new QueryEvaluator(query.where) : undefined;
  let matching = evaluator ? records.filter((record) => evaluator.matches(record)) : [...records];
  if (query.order.length > 0) {
    const order = new MemoryOrder(query.order);
    const ranked = matching.map((record, seq) => ({ record, rank: order.rank(seq, record.id as string, record) }));
    ranked.sort((a, b) => order.compare(a.rank, b.rank));
    matching = ranked.map((entry) => entry.record);
  }
  const end = query.count === undefined ? undefined : query.offset + query.count;
  const window = matching.slice(query.offset, end);
  JSON.stringify(window);
  return { ms: elapsedMs(started), matches: window.length };
}

async function main(): Promise<void> {
  buildService();
  const database = await freshDatabase('shapes');
  const secret = randomBytes(32).toString('hex');
  const headers = {
    authorization: `Bearer ${sign({ sub: 'bench' }, secret, { algorithm: 'HS256', expiresIn: '2h' })}`,
    'content-type': 'application/json',
  };
  const service = await startService(database.url, secret, 'query-shapes');
  const rows: string[] = [];
  try {
    for (let from = 0; from < RECORDS; from += 1_000) {
      const reply = await fetch(`${service.url}/event`, {
        method: 'POST',
        headers,
        body: batchBody(from, Math.min(RECORDS, from + 1_000)),
      });
      if (reply.status !== 201) throw new Error(`preload: HTTP ${reply.status} ${(await reply.text()).slice(0, 300)}`);
    }
    await database.settle();
    const records = Array.from({ length: RECORDS }, (_, i) => JSON.parse(recordJson(i)) as JsonObject);
    for (const [name, body] of SHAPES.filter(([shape]) => ONLY === undefined || shape.includes(ONLY))) {
      const ask = async (): Promise<{ ms: number; matches: number; refused?: string }> => {
        const started = process.hrtime.bigint();
        const reply = await fetch(`${service.url}/event?q=${encodeURIComponent(JSON.stringify(body))}`, { headers });
        const answer = (await reply.json()) as unknown[];
        const ms = elapsedMs(started);
        if (reply.status === 404) return { ms, matches: 0 };
        if (reply.status === 400 && JSON.stringify(answer).includes('query stopped'))
          return { ms, matches: 0, refused: 'stopped by the query budget' };
        if (reply.status !== 200) throw new Error(`${name}: HTTP ${reply.status} ${JSON.stringify(answer).slice(0, 300)}`);
        return { ms, matches: answer.length };
      };
      const first = await ask();
      const scans = Array.from({ length: 3 }, () => scan(records, body));
      const inMemory = median(scans.map((entry) => entry.ms));
      await pathsBuilt(database.url);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const timed: number[] = [];
      let matches = 0;
      // The first request may be the one that teaches the family a path: only the later ones count.
      let refused: string | undefined;
      for (let repeat = 0; repeat < REPEATS && !refused; repeat++) {
        const answer = await ask();
        timed.push(answer.ms);
        matches = answer.matches;
        refused = answer.refused;
      }
      if (refused) {
        // The query budget stopped it (INVENTORY_QUERY_TIMEOUT): a cliff, reported as one.
        const row = `| ${name} | ${refused} | – | ${first.refused ?? first.ms.toFixed(0)} | ${inMemory.toFixed(1)} | – |`;
        rows.push(row);
        process.stdout.write(`${row}\n`);
        continue;
      }
      if (scans[0].matches !== matches) throw new Error(`${name}: the service answered ${matches} records, the scan ${scans[0].matches}`);
      const serviceMs = median(timed);
      const row = `| ${name} | ${matches} | ${serviceMs.toFixed(1)} | ${first.refused ?? first.ms.toFixed(0)} | ${inMemory.toFixed(1)} | ${(inMemory / serviceMs).toFixed(1)} |`;
      rows.push(row);
      process.stdout.write(`${row}\n`);
    }
  } finally {
    await service.stop();
    await database.drop();
  }
  process.stdout.write(
    [
      '',
      `${database.label}, ${RECORDS.toLocaleString('en')} events; median of ${REPEATS} sequential requests, once every learned path was built and ${SETTLE_MS / 1000} s more had passed.`,
      '',
      '| shape | records answered | service ms | first request ms | in-memory scan ms | scan / service |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
