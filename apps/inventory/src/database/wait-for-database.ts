import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from 'pg';
import { AppConfig } from '../config/app-config';
import { StartError } from '../startup/start-error';

/** One connection attempt never waits longer than this, so a silent host is retried too. */
const ATTEMPT_TIMEOUT_MS = 3000;
/** Pauses between attempts grow from the first to the last value. */
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 2000;
/** While waiting, a reminder at most this often: the log says why the start takes long. */
const REMINDER_MS = 10_000;

/**
 * Before the app is built: waits until the database answers, for at most
 * INVENTORY_DATABASE_RETRY, so that a service started together with its database (one compose
 * file, one pod) does not lose the race. Gives up with a StartError naming DATABASE_URL, its
 * password masked. Nest's own start would instead print the driver's error with a stack.
 */
export async function waitForDatabase(config: Pick<AppConfig, 'database' | 'databaseRetryMs'>): Promise<void> {
  const { database } = config;
  if (database.type === 'sqlite') return openSqlite(database.path);
  const masked = maskedDatabaseUrl(database.url);
  const logger = new Logger('Database');
  let lastReminder = 0;
  try {
    await retryFor(config.databaseRetryMs, (timeoutMs) => pingPostgres(database.url, timeoutMs), {
      permanent: isPermanent,
      onFailure: (error, remainingMs) => {
        if (Date.now() - lastReminder < REMINDER_MS) return;
        lastReminder = Date.now();
        logger.warn(
          `DATABASE_URL: ${masked} does not answer (${reasonOf(error, database.url)}); retrying for ${seconds(remainingMs)} more`,
        );
      },
    });
  } catch (error) {
    const reason = reasonOf(error, database.url);
    if (isPermanent(error)) throw new StartError('DATABASE_URL', `${masked} refused the connection: ${reason}`);
    const waited = config.databaseRetryMs > 0 ? ` within ${seconds(config.databaseRetryMs)} (INVENTORY_DATABASE_RETRY)` : '';
    throw new StartError('DATABASE_URL', `${masked} did not answer${waited}: ${reason}`);
  }
}

/** The URL as it may be shown: the password replaced by `***`. */
export function maskedDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not parseable: show nothing of it rather than risk showing a password.
    return '(unparseable URL)';
  }
}

export interface RetryOptions {
  /** A failure that waiting cannot cure (wrong password): no further attempt. */
  permanent: (error: unknown) => boolean;
  onFailure?: (error: unknown, remainingMs: number) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Calls `attempt` until it succeeds, fails permanently, or `retryMs` has passed since the first
 * call; then rethrows the last failure. `retryMs` 0 means one attempt.
 */
export async function retryFor(retryMs: number, attempt: (timeoutMs: number) => Promise<void>, options: RetryOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + retryMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const remaining = deadline - now();
    try {
      await attempt(retryMs === 0 ? ATTEMPT_TIMEOUT_MS : Math.min(ATTEMPT_TIMEOUT_MS, Math.max(remaining, FIRST_PAUSE_MS)));
      return;
    } catch (error) {
      const left = deadline - now();
      if (options.permanent(error) || left <= 0) throw error;
      options.onFailure?.(error, left);
      await sleep(Math.min(pause, left));
    }
  }
}

async function pingPostgres(url: string, timeoutMs: number): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // A connection dropped after connect is reported here as well as by the pending call.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** SQLite is a file: no waiting, but a directory that cannot be written is one line too. */
function openSqlite(path: string): void {
  if (path === ':memory:') return;
  try {
    mkdirSync(dirname(path), { recursive: true });
    new Database(path).close();
  } catch (error) {
    throw new StartError('DATABASE_URL', `sqlite:${path} cannot be opened: ${(error as Error).message}`);
  }
}

/** PostgreSQL's class 28: invalid authorization (wrong user or password, pg_hba refusal). */
function isPermanent(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('28');
}

/** One line, without the password even if a driver were to repeat the URL. */
function reasonOf(error: unknown, url: string): string {
  const first: unknown = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const message = first instanceof Error ? first.message || (first as NodeJS.ErrnoException).code || first.name : String(first);
  let reason = message.split('\n')[0];
  for (const secret of passwordForms(url)) reason = reason.split(secret).join('***');
  return reason;
}

function passwordForms(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password === '' ? [] : [...new Set([password, decodeURIComponent(password)])];
  } catch {
    return [];
  }
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}
