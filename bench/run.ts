/**
 * `npm run bench`: measures the service against a raw node:http bound on the same machine, in
 * the same run, with the same load (see issue 4 and bench/README.md).
 *
 *   npm run bench                          # 10k records, W1–W5, SQLite
 *   npm run bench -- --skip-w5             # quick: W1–W4 only
 *   npm run bench -- --records 1000000     # scaling run (a 10k service alternated with the 1M one)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 *
 * This file only orchestrates: records.ts builds records, load.ts generates load,
 * raw-server.ts is the bound, processes.ts/database.ts start things, report.ts formats.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import { BenchDatabase, freshDatabase } from './database';
import { cpuTicks, MachineTicks, machineShare, machineTicks } from './cpu-ticks';
import { buildService, HAS_TASKSET, LoadGenerator, ROOT, Server, startLoadGenerator, startRawServer, startService, TMP } from './processes';
import type { Measurement, Workload } from './protocol';
import { DEFAULT_SOURCE_GROUP } from './records';
import { BenchResults, Series, toMarkdown } from './report';
import { median, medianOfRatios } from './statistics';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    'skip-w5': { type: 'boolean', default: false },
    'w5-records': { type: 'string', default: '1000000' },
    'w5-reps': { type: 'string', default: '3' },
    // Short windows, many repetitions: a pair (service window, raw window) then rarely straddles
    // one of the VM's slow stretches (bench/README.md, "A machine whose speed moves").
    duration: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '3' },
    // W3U's teaching round on each service before the warm-ups (its first query teaches the family its path, whose rows are then built in the background).
    'w3u-warmup': { type: 'string' },
    // Every W3/W3U request the same query (one group's value), as clients polling one filter send it, instead of one picked at random per request.
    'w3-one-query': { type: 'boolean', default: false },
    // Preloaded records sharing each `source` (and `flow`) value: W3's and W3U's matches per answer (the issue's goal covers 10 to 40).
    hits: { type: 'string', default: String(DEFAULT_SOURCE_GROUP) },
    // Preloads scatter each group's records over the family (bench/records.ts, scatteredArrival) instead of loading them side by side.
    scattered: { type: 'boolean', default: false },
    reps: { type: 'string', default: '7' },
    connections: { type: 'string', default: '10' },
    // W3 before W2/W4: writes add records, and the raw bound's scan would then cover more than N.
    workloads: { type: 'string', default: 'W1,W3,W3U,W2,W4,W4S' },
    // W4 measures ingest into a family that already holds at least this many records (topped up before W4).
    'w4-family': { type: 'string', default: '100000' },
    // A run of more than 10k records measures a 10k service beside its own, alternated window by
    // window (`startCompanion`); with this, it compares with the last 10k run's file instead.
    'scaling-from-file': { type: 'boolean', default: false },
    // Profiles the service (node --cpu-prof); its figures are then not comparable, so no result file is written.
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const RECORDS = Number(args.records);
/** The family size the scaling goals compare with. */
const BASELINE_RECORDS = 10_000;
const W4_FAMILY = Number(args['w4-family']);
const W5_RECORDS = Number(args['w5-records']);
const SETTINGS = {
  duration: Number(args.duration),
  warmup: Number(args.warmup),
  reps: Number(args.reps),
  connections: Number(args.connections),
  batch: 1000,
  w5Reps: Number(args['w5-reps']),
  w3OneQuery: args['w3-one-query'],
  hits: Number(args.hits),
  scattered: args.scattered,
};
if (!Number.isInteger(SETTINGS.hits) || SETTINGS.hits < 1 || SETTINGS.hits > BASELINE_RECORDS) {
  throw new Error(`--hits: records sharing a value, an integer from 1 to ${BASELINE_RECORDS}, not ${args.hits}`);
}
const WORKLOADS = args.workloads.split(',').map((w) => w.trim().toUpperCase()) as Workload[];
const RESULTS = join(ROOT, 'bench', 'results');
const DB_KIND = process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite';

// The service checks HS256 tokens with this secret; the raw server compares the token as a string.
const JWT_SECRET = randomBytes(32).toString('hex');
const TOKEN = sign({ sub: 'bench' }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '24h' });

const started = Date.now();
function log(message: string): void {
  process.stdout.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}\n`);
}

const pct = (n: number | undefined): string => (n === undefined || !Number.isFinite(n) ? '?' : `${n.toFixed(0)} %`);

function series(measurements: Measurement[], peakRssMb: number, scale = 1): Series {
  return {
    cpu: measurements.map((m) => m.cpu ?? {}),
    perSecond: median(measurements.map((m) => m.perSecond)) * scale,
    reps: measurements.map((m) => m.perSecond * scale),
    p50: median(measurements.map((m) => m.p50)),
    p99: median(measurements.map((m) => m.p99)),
    peakRssMb,
    wrong: measurements.reduce((sum, m) => sum + m.wrong, 0),
    errors: measurements.reduce((sum, m) => sum + m.errors + m.timeouts, 0),
    firstWrong: measurements.find((m) => m.firstWrong)?.firstWrong,
  };
}

/** Children to stop and databases to drop should the run fail or be interrupted (Ctrl-C). */
const undo = new Set<() => Promise<void> | void>();
/** Registers an undo step; answers a function that runs it now (and forgets it). */
function track(step: () => Promise<void> | void): () => Promise<void> {
  undo.add(step);
  return async () => {
    undo.delete(step);
    await step();
  };
}
async function undoAll(): Promise<void> {
  for (const step of [...undo].reverse()) {
    undo.delete(step);
    try {
      await step();
    } catch (error) {
      process.stderr.write(`cleanup: ${String(error)}\n`);
    }
  }
}
process.on('SIGINT', () => void undoAll().then(() => process.exit(130)));

async function measure(
  load: LoadGenerator,
  server: Server,
  idle: Server,
  workload: Workload,
  seconds: number,
  records?: number,
): Promise<Measurement> {
  const reply = await load.call({
    type: 'measure',
    url: server.url,
    token: TOKEN,
    workload,
    seconds,
    connections: SETTINGS.connections,
    batch: SETTINGS.batch,
    serverPid: server.child.pid!,
    idlePid: idle.child.pid!,
    records,
    oneQuery: SETTINGS.w3OneQuery,
  });
  if (reply.type !== 'measured') throw new Error(`unexpected reply ${reply.type}`);
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    throw new Error(`${server.name} died during ${workload} (${server.child.exitCode ?? server.child.signalCode}):\n${server.output()}`);
  }
  return reply.measurement;
}

/** A server is quiet once it has used at most this share of a core over `QUIET_SPAN_MS`. */
const QUIET_SHARE = 0.1;
/**
 * The machine is quiet once at most this % of all its cores was busy over `QUIET_SPAN_MS`,
 * whatever ran: idle, this VM's other services take 2-3 %.
 */
const QUIET_MACHINE_PERCENT = 15;
const QUIET_SPAN_MS = 500;
const QUIET_MAX_MS = 120_000;
/** A wait longer than this is logged, with what was busy. */
const QUIET_LOGGED_MS = 1000;

/**
 * Waits until neither server nor the machine is busy, so that work left over from one window is
 * not measured in the next. It was: at 1M records the raw server's first filter parses the
 * records created since its last one, which outlasted its 3 s warm-up and ran on through the
 * service's first window (service 70-77 % busy, W3 at 4.2k req/s against 5.9-6.6k in the two
 * windows after; eleventh session). A service still building a learned path is busy too, and is
 * waited for, as a 60 s `--w3u-warmup` once did by hand. Other processes count as well: on PostgreSQL, W3's
 * warm-ups and first repetition ran right after the preload with the machine 71-73 % busy, the
 * service using 36 % of its core and the raw server 70 %, at half their later rates
 * (twenty-eighth session). Gives up after two minutes, and says so.
 */
async function quiet(servers: readonly Server[]): Promise<void> {
  const started = Date.now();
  const samples: { at: number; ticks: (number | undefined)[]; machine?: MachineTicks }[] = [];
  let wasBusy: string[] = [];
  for (;;) {
    samples.push({ at: Date.now(), ticks: servers.map((server) => cpuTicks(server.child.pid!)), machine: machineTicks() });
    const first = samples.find((sample) => sample.at >= Date.now() - QUIET_SPAN_MS);
    const last = samples[samples.length - 1];
    if (first && last.at - first.at >= QUIET_SPAN_MS * 0.8) {
      const seconds = (last.at - first.at) / 1000;
      const busy = servers
        .filter((_server, k) => ((last.ticks[k] ?? 0) - (first.ticks[k] ?? 0)) / 100 / seconds > QUIET_SHARE)
        .map((server) => server.name);
      const machine = machineShare(first.machine, last.machine);
      if (machine !== undefined && machine > QUIET_MACHINE_PERCENT) busy.push(`the machine (${pct(machine)} of all cores)`);
      if (busy.length === 0) break;
      wasBusy = busy;
      if (Date.now() - started > QUIET_MAX_MS) {
        log(`still busy after ${QUIET_MAX_MS / 1000} s, measuring anyway: ${busy.join(', ')}`);
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const waited = Date.now() - started;
  if (waited > QUIET_LOGGED_MS) log(`waited ${(waited / 1000).toFixed(1)} s for quiet (busy: ${wasBusy.join(', ')})`);
}

/** Loads preloaded-style records [from, to) into `server`, with POSTs of a batch each (scattered as load.ts decides). */
async function preload(load: LoadGenerator, server: Server, from: number, to: number, results: BenchResults, phase: string): Promise<void> {
  const records = to - from;
  log(`${phase}: loading records ${from.toLocaleString('en')}..${(to - 1).toLocaleString('en')} into ${server.name}`);
  const reply = await load.call({ type: 'preload', url: server.url, token: TOKEN, from, to, batch: SETTINGS.batch, inFlight: 2 });
  if (reply.type !== 'preloaded') throw new Error(`unexpected reply ${reply.type}`);
  results.preloads.push({
    phase,
    target: server.name,
    records,
    seconds: reply.seconds,
    perSecond: records / reply.seconds,
    peakRssMb: server.peakRssMb(),
  });
  log(`  ${server.name}: ${(records / reply.seconds).toFixed(0)} records/s, peak RSS ${server.peakRssMb().toFixed(0)} MB`);
}

/** Before W4: records [from, to) into `servers`, so that W4 writes into a family of at least `to` records. */
async function topUp(
  load: LoadGenerator,
  servers: readonly Server[],
  settle: () => Promise<void>,
  from: number,
  to: number,
  results: BenchResults,
): Promise<void> {
  for (const server of servers) await preload(load, server, from, to, results, 'before W4');
  await settle();
}

function writesToFamily(workload: Workload): boolean {
  return workload === 'W2' || isBatchIngest(workload);
}

function isBatchIngest(workload: Workload): boolean {
  return workload === 'W4' || workload === 'W4S' || workload === 'W4R';
}

/** The scaling run's service of 10k records, measured beside the main one (`startCompanion`). */
interface Companion {
  service: Server;
  records: number;
  /** Tops its family up to `to` records (before W4), as the 10k run does. */
  topUp(to: number): Promise<void>;
  done(): Promise<void>;
}

/**
 * Warm-up on each server, then repetitions alternating between them so that background noise
 * hits all alike: the service, the scaling run's 10k service if any, the raw bound.
 */
async function runWorkload(
  load: LoadGenerator,
  service: Server,
  raw: Server,
  workload: Workload,
  results: BenchResults,
  companion?: Companion,
): Promise<void> {
  const targets = companion ? [service, companion.service, raw] : [service, raw];
  const otherOf = (target: Server): Server => (target === raw ? service : raw);
  const recordsOf = (target: Server): number | undefined => (target === companion?.service ? companion.records : undefined);
  for (const target of targets) target.resetPeak();
  const warmUp = async (target: Server, seconds: number, what: string): Promise<void> => {
    await quiet(targets);
    log(`${workload} ${what} on ${target.name} (${seconds} s)`);
    const m = await measure(load, target, otherOf(target), workload, seconds, recordsOf(target));
    log(`${workload} ${what} on ${target.name}: ${m.perSecond.toFixed(0)} correct/s`);
  };
  // W3U's first queries teach each service `flow` and wait for its rows, built in the background
  // (~10 s at 1M): as the warm-up, that answered nothing at 1M and left the JIT's warm-up to the
  // first repetition (0.67). So the services are taught first, and warmed up once quiet. Not one
  // long warm-up each: the 1M service then sat idle for minutes, long enough for the VM to page
  // out its database (bench/README.md, "A machine that pages out cold files").
  if (workload === 'W3U') {
    const teach = args['w3u-warmup'] ? Number(args['w3u-warmup']) : SETTINGS.warmup;
    for (const target of targets) if (target !== raw) await warmUp(target, teach, 'teaching');
  }
  for (const target of targets) await warmUp(target, SETTINGS.warmup, 'warm-up');
  const measured = new Map<Server, Measurement[]>(targets.map((t) => [t, []]));
  for (let rep = 1; rep <= SETTINGS.reps; rep++) {
    for (const target of targets) {
      await quiet(targets);
      const m = await measure(load, target, otherOf(target), workload, SETTINGS.duration, recordsOf(target));
      measured.get(target)!.push(m);
      log(
        `${workload} rep ${rep} ${target.name}: ${m.perSecond.toFixed(0)} correct/s, p50 ${m.p50} ms, p99 ${m.p99} ms, wrong ${m.wrong}, errors ${m.errors + m.timeouts}, CPU server ${pct(m.cpu?.server)} / wrk ${pct(m.cpu?.generator)} / all cores ${pct(m.cpu?.machine)} / idle server ${pct(m.cpu?.idleServer)} / stolen ${pct(m.cpu?.stolen)} / server waited for its core ${pct(m.cpu?.waitedForCore)}, disk ${m.cpu?.diskKb === undefined ? '?' : m.cpu.diskKb.toFixed(0)} KB/s, I/O wait ${pct(m.cpu?.ioWait)} of all cores`,
      );
    }
  }
  const scale = isBatchIngest(workload) ? SETTINGS.batch : 1;
  const serviceSeries = series(measured.get(service)!, service.peakRssMb(), scale);
  const rawSeries = series(measured.get(raw)!, raw.peakRssMb(), scale);
  results.workloads.push({
    workload,
    service: serviceSeries,
    raw: rawSeries,
    ratio: medianOfRatios(serviceSeries.reps, rawSeries.reps),
    ...(companion && { serviceAtBaseline: series(measured.get(companion.service)!, companion.service.peakRssMb(), scale) }),
  });
}

/** W5: full streamed reads of a family of `records`, peak RSS measured over the reads alone (and with the preload). */
async function runW5(load: LoadGenerator, service: Server, raw: Server, records: number, results: BenchResults): Promise<void> {
  const peakWithPreload = service.peakRssMb();
  const measured = new Map<Server, Measurement[]>([
    [service, []],
    [raw, []],
  ]);
  for (const target of [service, raw]) target.resetPeak();
  for (let rep = 1; rep <= SETTINGS.w5Reps; rep++) {
    for (const target of [service, raw]) {
      const reply = await load.call({ type: 'readAll', url: target.url, token: TOKEN, records });
      if (reply.type !== 'measured') throw new Error(`unexpected reply ${reply.type}`);
      const m = reply.measurement;
      measured.get(target)!.push(m);
      log(
        `W5 rep ${rep} ${target.name}: ${m.perSecond.toFixed(0)} records/s (${m.seconds.toFixed(1)} s, first byte ${m.p50.toFixed(0)} ms), peak RSS ${target.peakRssMb().toFixed(0)} MB${m.firstWrong ? `, WRONG: ${m.firstWrong}` : ''}`,
      );
    }
  }
  const serviceSeries = series(measured.get(service)!, service.peakRssMb());
  const rawSeries = series(measured.get(raw)!, raw.peakRssMb());
  results.w5 = {
    records,
    service: serviceSeries,
    raw: rawSeries,
    ratio: medianOfRatios(serviceSeries.reps, rawSeries.reps),
    servicePeakWithPreloadMb: Math.max(peakWithPreload, service.peakRssMb()),
  };
}

interface StartedService {
  service: Server;
  settle: () => Promise<void>;
  /** Stops the service and drops its database. */
  done: () => Promise<void>;
}

/** One fresh database and a service on it, preloaded with `records`. */
async function startLoadedService(
  load: LoadGenerator,
  tag: string,
  records: number,
  results: BenchResults,
  name?: string,
): Promise<StartedService & { label: string }> {
  const database: BenchDatabase = await freshDatabase(tag);
  const drop = track(() => database.drop());
  const started = await startService(database.url, JWT_SECRET, `service-${tag}.log`, args['cpu-prof']);
  const service: Server = name ? { ...started, name } : started;
  log(`started ${service.name} (${database.label})`);
  const stopService = track(() => service.stop());
  await preload(load, service, 0, records, results, tag);
  await database.settle();
  return {
    service,
    label: database.label,
    settle: () => database.settle(),
    done: async () => {
      results.serviceLog.push({ phase: tag, lines: service.lineCount(), tail: service.output(), file: service.logFile });
      await stopService();
      await drop();
    },
  };
}

/** A service and the raw server, both preloaded with `records`; `done` stops them and drops the database. */
async function startPair(
  load: LoadGenerator,
  tag: string,
  records: number,
  results: BenchResults,
): Promise<StartedService & { raw: Server }> {
  const { service, label, settle, done } = await startLoadedService(load, tag, records, results);
  results.database = label;
  const raw = await startRawServer(TOKEN, `raw-${tag}.log`);
  const stopRaw = track(() => raw.stop());
  await preload(load, raw, 0, records, results, tag);
  return {
    service,
    raw,
    settle,
    done: async () => {
      await stopRaw();
      await done();
    },
  };
}

/**
 * The scaling run's comparison: a second service, on a database of its own, holding the first
 * `records` of the same records, measured in every repetition right after the main service.
 * Compared with a 10k run's file instead, the scaling ratio also measured the machine's drift
 * between the two runs: on a 2-core Xeon VM one 10k run read W3U at 10,644, 6,634 and 10,171
 * req/s by repetition, and its median over the 1M run's 7,391 gave 0.72 (2026-11-29).
 */
async function startCompanion(load: LoadGenerator, records: number, results: BenchResults): Promise<Companion> {
  const name = `service at ${records >= 1000 ? `${records / 1000}k` : records}`;
  const { service, settle, done } = await startLoadedService(load, 'scaling', records, results, name);
  let holds = records;
  return {
    service,
    records,
    topUp: async (to) => {
      if (to <= holds) return;
      await topUp(load, [service], settle, holds, to, results);
      holds = to;
    },
    done,
  };
}

/** Linux's id of the current boot; undefined elsewhere. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  mkdirSync(RESULTS, { recursive: true });
  const results: BenchResults = {
    date: new Date().toISOString(),
    command: `${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL=… ' : ''}npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: {
      nproc: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGb: totalmem() / 2 ** 30,
      node: process.version,
      taskset: HAS_TASKSET,
      loadBefore: loadavg()[0],
      loadAfter: NaN,
      bootId: bootId(),
    },
    database: '',
    databaseKind: DB_KIND,
    records: RECORDS,
    settings: SETTINGS,
    preloads: [],
    workloads: [],
    serviceLog: [],
    seconds: NaN,
  };

  log('building the service into bench/tmp/dist');
  buildService();
  const load = startLoadGenerator();
  const stopLoad = track(() => load.stop());
  await load.call({ type: 'init', records: RECORDS, hits: SETTINGS.hits, scattered: SETTINGS.scattered });

  // Main phase: W1–W4, and W5 when the main family already is the 1M one: after the reads and
  // before the first write, which would add to the family W5 reads whole. Not before the reads:
  // the 10k run's reads never follow a 1M streamed read, and right after one both servers
  // answered W1 ~11 % slower (2026-11-29, 1M: service 13.7k against 15.5k req/s, raw 30.9k
  // against 34.6k), so the scaling ratios had measured W5's wake, not the table's size.
  const main = await startPair(load, 'main', RECORDS, results);
  const companion =
    RECORDS > BASELINE_RECORDS && !args['scaling-from-file'] && !args['cpu-prof']
      ? await startCompanion(load, BASELINE_RECORDS, results)
      : undefined;
  let w5Pending = !args['skip-w5'] && RECORDS >= W5_RECORDS;
  for (const workload of WORKLOADS) {
    if (w5Pending && writesToFamily(workload)) {
      await runW5(load, main.service, main.raw, RECORDS, results);
      w5Pending = false;
    }
    if (isBatchIngest(workload) && W4_FAMILY > RECORDS && results.w4Family === undefined) {
      await topUp(load, [main.service, main.raw], main.settle, RECORDS, W4_FAMILY, results);
      results.w4Family = W4_FAMILY;
    }
    if (isBatchIngest(workload)) await companion?.topUp(W4_FAMILY);
    await runWorkload(load, main.service, main.raw, workload, results, companion);
  }
  if (w5Pending) await runW5(load, main.service, main.raw, RECORDS, results);
  await companion?.done();
  await main.done();

  // W5 phase: a fresh service and raw server, each loaded with a 1M-record family.
  if (!args['skip-w5'] && !results.w5) {
    await load.call({ type: 'init', records: W5_RECORDS, hits: SETTINGS.hits, scattered: SETTINGS.scattered });
    const w5 = await startPair(load, 'w5', W5_RECORDS, results);
    await runW5(load, w5.service, w5.raw, W5_RECORDS, results);
    await w5.done();
  }
  await stopLoad();

  results.machine.loadAfter = loadavg()[0];
  results.seconds = (Date.now() - started) / 1000;
  const suffix = DB_KIND === 'postgres' ? '-postgres' : '';
  const baselineFile = join(RESULTS, `latest-10k${suffix}.json`);
  const baseline =
    RECORDS !== BASELINE_RECORDS && !companion && existsSync(baselineFile)
      ? (JSON.parse(readFileSync(baselineFile, 'utf8')) as BenchResults)
      : undefined;
  const markdown = toMarkdown(results, baseline);
  process.stdout.write(`\n${markdown}\n`);
  if (args['cpu-prof']) {
    log(
      `service profiled: figures not kept; profiles in bench/tmp/prof/ (summary: npx ts-node --transpile-only bench/profile-summary.ts FILE)`,
    );
    return;
  }
  writeFileSync(join(RESULTS, 'latest.md'), markdown);
  // Kept per configuration too, so that the scaling run does not overwrite the 10k table.
  const size =
    RECORDS >= 1_000_000 && RECORDS % 1_000_000 === 0
      ? `${RECORDS / 1_000_000}m`
      : RECORDS % 1000 === 0
        ? `${RECORDS / 1000}k`
        : String(RECORDS);
  writeFileSync(join(RESULTS, `${DB_KIND}-${size}.md`), markdown);
  if (RECORDS === BASELINE_RECORDS) writeFileSync(baselineFile, JSON.stringify(results, null, 2) + '\n');
  log(`done in ${results.seconds.toFixed(0)} s; written to bench/results/latest.md`);
}

main().catch(async (error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await undoAll();
  process.exit(1);
});
