/**
 * Child processes of a benchmark run: the service, the raw server and the load generator, each
 * pinned to a core when `taskset` exists (servers on core 0, load on core 1) so that the load
 * generator never steals the server's CPU. Output goes to a log file under bench/tmp/ and a
 * tail is kept in memory, so that a misbehaving server can be reported precisely.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { START_NODE_FLAGS } from '../test/support/built-service';
import { freePort } from '../test/support/service-process';
import type { LoadReply, LoadRequest } from './protocol';

export const ROOT = join(__dirname, '..');
export const TMP = join(ROOT, 'bench', 'tmp');
/** The service is compiled here rather than into dist/, so that a run never races someone else's `npm run build`. */
export const DIST = join(TMP, 'dist');

export const SERVER_CORE = '0';
export const LOAD_CORE = '1';
export const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

function pinned(core: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ['taskset', ['-c', core, ...args]] : [args[0], args.slice(1)];
}

/** ts-node for the bench's own TypeScript (raw server, load generator): compiled once at start, no effect on the hot path. */
const TS_NODE = [process.execPath, '-r', 'ts-node/register/transpile-only'];

/** Compiles the service the way `npm run build` does, into bench/tmp/dist. */
export function buildService(): void {
  const tsc = require.resolve('typescript/bin/tsc');
  spawnSync('rm', ['-rf', DIST]);
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', DIST], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
}

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  logFile: string;
  /** The last lines the process wrote (warnings, errors). */
  output(): string;
  /** Lines written since start: at LOG_LEVEL=warn a healthy service writes none under load. */
  lineCount(): number;
  /** Peak resident set size (VmHWM) in MB since start or the last resetPeak(). */
  peakRssMb(): number;
  /** Resets VmHWM (Linux ≥ 4.0: `5` into /proc/PID/clear_refs), so each phase gets its own peak. */
  resetPeak(): boolean;
  stop(): Promise<void>;
}

function watch(name: string, child: ChildProcess, url: string, logName: string, stopSignal: NodeJS.Signals = 'SIGTERM'): Server {
  const logFile = join(TMP, logName);
  const log = createWriteStream(logFile);
  let tail = '';
  let lines = 0;
  const take = (chunk: Buffer): void => {
    log.write(chunk);
    const text = chunk.toString();
    lines += text.split('\n').length - 1;
    tail = (tail + text).slice(-4000);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const status = (): string => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return {
    name,
    url,
    child,
    logFile,
    output: () => tail,
    lineCount: () => lines,
    peakRssMb: () => {
      const match = /VmHWM:\s+(\d+) kB/.exec(status());
      return match ? Number(match[1]) / 1024 : NaN;
    },
    resetPeak: () => {
      try {
        writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
        return true;
      } catch {
        return false;
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill(stopSignal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

async function waitHealthy(server: Server): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`${server.name} exited with ${server.child.exitCode} before answering:\n${server.output()}`);
    try {
      if ((await fetch(`${server.url}/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${server.name} did not answer /health within 60 s:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const PROFILES = join(TMP, 'prof');

/**
 * BENCH_SERVICE_ENV="NAME=value NAME=value": settings for the measured service on top of the
 * above, e.g. `INVENTORY_ACCESS_LOG=true LOG_LEVEL=info` to measure what the access log costs
 * (README "Performance").
 */
function serviceEnvFromBench(): Record<string, string> {
  const pairs = (process.env.BENCH_SERVICE_ENV ?? '').split(/\s+/).filter((pair) => pair !== '');
  return Object.fromEntries(
    pairs.map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 1) throw new Error(`BENCH_SERVICE_ENV: "${pair}" is not NAME=value`);
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
}

/**
 * The service exactly as `npm start` runs it (compiled JS, its Node flags, tsconfig-paths), with auth on and no
 * demo data. With `cpuProfile`, under `node --cpu-prof` (profile written to bench/tmp/prof/ at stop).
 */
export async function startService(databaseUrl: string, jwtSecret: string, logName: string, cpuProfile = false): Promise<Server> {
  const port = await freePort();
  const profiling = cpuProfile ? ['--cpu-prof', '--cpu-prof-dir', PROFILES, '-r', join(ROOT, 'bench/cpu-prof-exit.js')] : [];
  const [command, args] = pinned(SERVER_CORE, [
    process.execPath,
    ...START_NODE_FLAGS,
    ...profiling,
    '-r',
    'tsconfig-paths/register',
    join(DIST, 'apps/inventory/src/main.js'),
  ]);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      TS_NODE_BASEURL: DIST,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      INVENTORY_JWT_SECRET: jwtSecret,
      // A set password: otherwise a generated one is printed, which would count as a log line.
      INVENTORY_ADMIN_PASSWORD: `bench-${jwtSecret.slice(0, 16)}`,
      INVENTORY_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      ...serviceEnvFromBench(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = watch('service', child, `http://127.0.0.1:${port}`, logName, cpuProfile ? 'SIGUSR2' : 'SIGTERM');
  await waitHealthy(server);
  return server;
}

export async function startRawServer(token: string, logName: string): Promise<Server> {
  const port = await freePort();
  // W2/W4 add millions of records to the raw Map (it keeps them all, as text): room beyond the default ~4 GB heap.
  // No memory reducer: holding 1M parsed records, its collection of an idle heap (seconds after
  // the raw server's own window, past the wait for quiet servers) took 41 % of the shared core in
  // the service's next window (1M W3: 2,646 req/s against 5,574–5,699; nineteenth session).
  const [command, args] = pinned(SERVER_CORE, [
    process.execPath,
    '--max-old-space-size=12288',
    '--no-memory-reducer',
    ...TS_NODE.slice(1),
    join(ROOT, 'bench/raw-server.ts'),
  ]);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', RAW_TOKEN: token, TS_NODE_TRANSPILE_ONLY: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = watch('raw', child, `http://127.0.0.1:${port}`, logName);
  await waitHealthy(server);
  return server;
}

export interface LoadGenerator {
  call(request: LoadRequest): Promise<LoadReply>;
  stop(): void;
}

/** The load generator process, spoken to over IPC (taskset execs node, which inherits the channel). */
export function startLoadGenerator(): LoadGenerator {
  const [command, args] = pinned(LOAD_CORE, [...TS_NODE, join(ROOT, 'bench/load.ts')]);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', TS_NODE_TRANSPILE_ONLY: 'true' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    call: (request) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null): void => reject(new Error(`load generator exited with ${code}`));
        child.once('exit', onExit);
        child.once('message', (reply: LoadReply) => {
          child.off('exit', onExit);
          if (reply.type === 'failed') reject(new Error(`load generator: ${reply.error}`));
          else resolve(reply);
        });
        child.send(request);
      }),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}
