import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_ADMIN, TEST_JWT_SECRET } from './test-credentials';

export const ROOT = join(__dirname, '..', '..');
/** What `npm start` runs. */
export const BUILT_MAIN = join(ROOT, 'dist', 'apps', 'inventory', 'src', 'main.js');
/**
 * The Node flags of `npm start` (package.json: V8's heap settings), which the README's container
 * command passes too: the tests' direct start and the benchmark run the service with the V8
 * settings it runs with in production.
 */
export const START_NODE_FLAGS: readonly string[] = startScriptNodeFlags();
/** Preload that makes every dev-only package unloadable, as after `npm prune --omit=dev`. */
export const RUNTIME_DEPENDENCIES_ONLY = join(__dirname, 'runtime-dependencies-only.js');

/**
 * Compiles dist/ if a source changed since the last build, exactly as `npm start` would, so that
 * the tests below run the code under test and not an older build. Slow only when it compiles.
 */
export function ensureBuilt(): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.js'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`scripts/build.js --if-stale failed:\n${result.stdout}${result.stderr}`);
}

/** The environment a test service starts with: test credentials, quiet logs unless asked. */
export function serviceEnv(databaseUrl: string, port: number, env: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    INVENTORY_JWT_SECRET: TEST_JWT_SECRET,
    INVENTORY_ADMIN_USER: TEST_ADMIN.username,
    INVENTORY_ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'info',
    ...env,
  };
}

/** A child process under test, with everything it printed and a way to wait for its end. */
export interface WatchedProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves at exit with the code (null when a signal ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until the output matches, or fails after `timeoutMs` with what was printed. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Waits until `url` answers 200, or fails (the process exited, or `timeoutMs` passed). */
  waitForOk(url: string, timeoutMs?: number): Promise<void>;
  /** Sends a signal (to the whole process group for `npm`) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function watchProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string>; group?: boolean },
): WatchedProcess {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = (once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>).then(([code, signal]) => ({ code, signal }));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    exited,
    waitForOutput: async (pattern, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (!running()) throw new Error(`exited (${child.exitCode ?? child.signalCode}) without printing ${pattern}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`did not print ${pattern} within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    waitForOk: async (url, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!running()) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} answered:\n${output}`);
        try {
          if ((await fetch(url)).status === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: async (signal = 'SIGTERM') => {
      if (running()) {
        if (options.group === true) process.kill(-child.pid!, signal);
        else child.kill(signal);
      }
      return exited;
    },
  };
}

/** `node` with `START_NODE_FLAGS` and `dist/apps/inventory/src/main.js`, the production start, with dev dependencies unloadable. */
export function startBuiltService(env: Record<string, string>, cwd = ROOT): WatchedProcess {
  return watchProcess(process.execPath, [...START_NODE_FLAGS, '--require', RUNTIME_DEPENDENCIES_ONLY, BUILT_MAIN], { cwd, env });
}

function startScriptNodeFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [command, ...words] = scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`package.json's start script runs ${command}, not node`);
  return words.filter((word) => word.startsWith('--'));
}
