/**
 * The load generator, its own process (pinned to its own core by run.ts, and so is the wrk it
 * starts) so that it never competes with the server under test for the CPU. Driven by run.ts
 * over IPC: one message per measurement, one answer back. Both servers get the same requests.
 *
 * Measurements run wrk (Debian's `wrk` package) with bench/wrk.lua: requests are built in
 * LuaJIT, one thread, so that the generator's core stays below saturation while the server's
 * is at 100 %; both CPU figures are sampled from /proc per window and reported with it.
 *
 * Only correct answers count: each workload knows the status and the exact byte length of the
 * right answer (records are deterministic, see records.ts), and wrk.lua checks every response.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import {
  batchBody,
  ENVELOPE_BASE_LENGTH,
  newRecordTemplate,
  recordJson,
  scatteredArrival,
  setSourceGroup,
  sourceCount,
  sourceGroup,
} from './records';
import type { LoadReply, LoadRequest, Measurement } from './protocol';
import { cpuTicks, MachineTicks, machineShare, machineTicks, readCounters, ReadCounters, waitedForCoreNs } from './cpu-ticks';

/** Byte lengths of preloaded record i, and of the W3/W3U answer for each group of `sourceGroup()` records. */
let recordLength = new Int32Array(0);
let recordsLoaded = 0;
/** Whether preloads scatter each group's records (`--scattered`), so that any of them may come first in an answer. */
let groupsScattered = false;
/** Unique numbers for W2/W4 records across the whole run (both servers, warm-ups, repetitions). */
let nextNew = 0;
/** Where wrk.lua reads the expected lengths and the new-record templates from. */
const DATA = join(__dirname, 'tmp', `wrk-data-${process.pid}`);
/** Ids of new records are `new-` and 10 digits: every created envelope has the same length. */
const NEW_ID_LENGTH = 14;

if (spawnSync('wrk', ['--version']).error) {
  throw new Error("wrk not found: the benchmark needs Debian's wrk (apt-get install -y wrk)");
}

function init(records: number, hits: number, scattered: boolean): void {
  setSourceGroup(hits);
  groupsScattered = scattered;
  recordsLoaded = records;
  recordLength = new Int32Array(records);
  for (let i = 0; i < records; i++) recordLength[i] = recordJson(i).length;
  const groups: number[] = [];
  for (let g = 0; g < sourceCount(records); g++) {
    let total = 1; // "["
    const first = g * sourceGroup();
    const last = Math.min(first + sourceGroup(), records);
    for (let i = first; i < last; i++) total += recordLength[i] + 1; // record and "," or "]"
    groups.push(total);
  }
  mkdirSync(DATA, { recursive: true });
  writeFileSync(join(DATA, 'lens.txt'), recordLength.join('\n') + '\n');
  writeFileSync(join(DATA, 'groups.txt'), groups.join('\n') + '\n');
  writeFileSync(join(DATA, 'templates.txt'), Array.from({ length: 1000 }, (_, seq) => newRecordTemplate(seq)).join('\n') + '\n');
  writeFileSync(join(DATA, 'envelope.txt'), `${ENVELOPE_BASE_LENGTH + NEW_ID_LENGTH}\n`);
}

async function measure(message: Extract<LoadRequest, { type: 'measure' }>): Promise<Measurement> {
  if (recordsLoaded < sourceGroup()) throw new Error('init first');
  const script = join(__dirname, 'wrk.lua');
  const w3path = message.workload === 'W3U' ? 'flow' : 'source';
  const child = spawn(
    'wrk',
    [
      '-t1',
      `-c${message.connections}`,
      `-d${message.seconds}s`,
      '--timeout',
      '120s',
      '-s',
      script,
      message.url,
      '--',
      message.workload,
      DATA,
      String(nextNew),
      String(message.batch),
      w3path,
      String(Math.min(message.records ?? recordsLoaded, recordsLoaded)),
      message.oneQuery ? 'one' : 'random',
      String(sourceGroup()),
      groupsScattered ? 'scattered' : 'grouped',
    ],
    { env: { ...process.env, BENCH_TOKEN: message.token }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  // CPU of wrk and of the server over the window (from 0.5 s in, once wrk has its connections, to its last sample).
  const samples: {
    at: number;
    wrk?: number;
    server?: number;
    idle?: number;
    waitedNs?: number;
    machine?: MachineTicks;
    reads?: ReadCounters;
  }[] = [];
  const sample = (): void => {
    samples.push({
      at: Date.now(),
      wrk: cpuTicks(child.pid!),
      server: cpuTicks(message.serverPid),
      idle: cpuTicks(message.idlePid),
      waitedNs: waitedForCoreNs(message.serverPid),
      machine: machineTicks(),
      reads: readCounters(message.serverPid),
    });
  };
  let sampler: NodeJS.Timeout | undefined;
  const startTimer = setTimeout(() => {
    sample();
    sampler = setInterval(sample, 250);
  }, 500);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(startTimer);
  clearInterval(sampler);
  const line = out.split('\n').find((l) => l.startsWith('BENCH-RESULT '));
  if (code !== 0 || !line) throw new Error(`wrk exited with ${code}:\n${out.slice(-2000)}`);
  const r = JSON.parse(line.slice('BENCH-RESULT '.length)) as {
    correct: number;
    wrong: number;
    errors: number;
    timeouts: number;
    micros: number;
    p50: number;
    p99: number;
    nextNew: number;
    firstWrong: string;
  };
  nextNew = Math.max(nextNew, r.nextNew) + 1;
  const withWrk = samples.filter((s) => s.wrk !== undefined);
  // How fast a counter grew over the samples, per second: for clock ticks (100 a second), % of one core.
  const rate = (pick: (s: (typeof samples)[number]) => number | undefined, list: typeof samples): number | undefined => {
    if (list.length < 2) return undefined;
    const a = list[0];
    const b = list[list.length - 1];
    const first = pick(a);
    const last = pick(b);
    return first === undefined || last === undefined ? undefined : (last - first) / ((b.at - a.at) / 1000);
  };
  const seconds = r.micros / 1e6;
  // % of all the machine's cores over the window that `pick` counts (busy by default).
  const machineOverWindow = (pick?: (ticks: MachineTicks) => number): number | undefined =>
    machineShare(withWrk[0]?.machine, withWrk[withWrk.length - 1]?.machine, pick);
  return {
    correct: r.correct,
    wrong: r.wrong,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds,
    perSecond: r.correct / seconds,
    p50: r.p50 / 1000,
    p99: r.p99 / 1000,
    cpu: {
      server: rate((s) => s.server, withWrk),
      generator: rate((s) => s.wrk, withWrk),
      idleServer: rate((s) => s.idle, withWrk),
      waitedForCore: rate((s) => (s.waitedNs === undefined ? undefined : s.waitedNs / NS_PER_TICK), withWrk),
      machine: machineOverWindow(),
      stolen: machineOverWindow((ticks) => ticks.steal),
      readCalls: rate((s) => s.reads?.calls, withWrk),
      readKb: rate((s) => (s.reads === undefined ? undefined : s.reads.bytes / 1024), withWrk),
      diskKb: rate((s) => (s.reads?.fromDisk === undefined ? undefined : s.reads.fromDisk / 1024), withWrk),
      ioWait: machineOverWindow((ticks) => ticks.ioWait),
    },
    firstWrong: r.firstWrong || undefined,
  };
}

/** `cpu` counts clock ticks (100 a second): schedstat's nanoseconds are converted to them. */
const NS_PER_TICK = 10_000_000;

/** W5: one streamed GET of the whole family, counted in bytes (the exact total is known), timed to the last byte. */
function readAll(message: Extract<LoadRequest, { type: 'readAll' }>): Promise<Measurement> {
  let expected = 1; // "["
  for (let i = 0; i < message.records; i++) expected += (i < recordsLoaded ? recordLength[i] : recordJson(i).length) + 1;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let firstByte = 0;
    const req = request(message.url + '/event', { headers: { authorization: `Bearer ${message.token}` } }, (res) => {
      let bytes = 0;
      let head = '';
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByte = Number(process.hrtime.bigint() - started) / 1e6;
        if (head.length < 300) head += chunk.toString('latin1', 0, 300);
        bytes += chunk.length;
      });
      res.on('end', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const ok = res.statusCode === 200 && bytes === expected;
        resolve({
          correct: ok ? message.records : 0,
          wrong: ok ? 0 : 1,
          errors: 0,
          timeouts: 0,
          seconds,
          perSecond: ok ? message.records / seconds : 0,
          p50: firstByte,
          p99: seconds * 1000,
          firstWrong: ok ? undefined : `HTTP ${res.statusCode}, ${bytes} bytes (expected ${expected}): ${head.slice(0, 300)}`,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Loads records [from, to) in POSTs of `batch`, a few requests in flight so that the server is
 * never idle while the next body is built. Any answer but 201 stops the run: the measurements
 * that follow would be meaningless.
 */
async function preload(message: Extract<LoadRequest, { type: 'preload' }>): Promise<number> {
  // A top-up (from > 0) stays in order: only a family's first load is scattered.
  const recordAt = groupsScattered && message.from === 0 ? scatteredArrival(message.to) : undefined;
  const started = process.hrtime.bigint();
  let next = message.from;
  const worker = async (): Promise<void> => {
    while (next < message.to) {
      const from = next;
      const to = Math.min(from + message.batch, message.to);
      next = to;
      const response = await fetch(message.url + '/event', {
        method: 'POST',
        headers: { authorization: `Bearer ${message.token}`, 'content-type': 'application/json' },
        body: batchBody(from, to, recordAt),
      });
      const text = await response.text();
      if (response.status !== 201)
        throw new Error(`preload of records ${from}..${to - 1} into ${message.url}: HTTP ${response.status} ${text.slice(0, 500)}`);
    }
  };
  await Promise.all(Array.from({ length: message.inFlight }, worker));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function handle(message: LoadRequest): Promise<LoadReply> {
  switch (message.type) {
    case 'init':
      init(message.records, message.hits, message.scattered);
      return { type: 'ready' };
    case 'measure':
      return { type: 'measured', measurement: await measure(message) };
    case 'preload':
      return { type: 'preloaded', seconds: await preload(message) };
    case 'readAll':
      return { type: 'measured', measurement: await readAll(message) };
  }
}

process.on('message', (message: LoadRequest) => {
  handle(message).then(
    (reply) => process.send!(reply),
    (error: unknown) => process.send!({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
// Leave when the orchestrator stops this process (SIGTERM) or goes away, however it went, taking
// wrk's data along (4.6 MB at 10k records; each run left its directory under bench/tmp).
const leave = (): void => {
  rmSync(DATA, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', leave);
process.on('disconnect', leave);
