import type { Pool, PoolClient } from 'pg';

/**
 * Settings every connection of the store's pool runs with, sent in the connection's start-up
 * packet (libpq's `options`), so no statement has to go ahead of a connection's first one.
 *
 * `enable_seqscan = off`: PostgreSQL chooses between a path's index and a scan of the whole value
 * table from estimates, and one set of statistics covers every family's and path's values, so a
 * range on one path is estimated from all of them: "timestamps before 00:01:05" (130 of 900k
 * value rows) was taken for 105k and read by a sequential scan of the table, 55 ms a query. Every
 * statement the store runs has an index that answers it, which a scan can only beat when one path
 * holds most of the table; PostgreSQL still scans where no index applies.
 *
 * `jit = off`: PostgreSQL compiles a statement with LLVM when its estimated cost passes
 * `jit_above_cost`, at every execution, and a setting that turns a plan off adds its huge
 * "disable" cost wherever the plan has no other way. Inside a learned path's build page
 * (`LEARNED_PAGE_SETTINGS`: sorts off) the statement that makes a path's key must sort, and each
 * of the build's first two pages spent 130–200 ms compiling it (EXPLAIN ANALYZE: JIT 131 ms of
 * 193), 0.33 ms without. The store's statements are short: none gains from compiling.
 */
const SESSION_SETTINGS: Record<string, string> = { enable_seqscan: 'off', jit: 'off' };

/** `SESSION_SETTINGS` as libpq's start-up `options`. */
export const POSTGRES_SESSION_OPTIONS = Object.entries(SESSION_SETTINGS)
  .map(([name, value]) => `-c ${name}=${value}`)
  .join(' ');

/** `SESSION_SETTINGS` as statements, for a connection opened without them. */
const SET_SESSION_SETTINGS = Object.entries(SESSION_SETTINGS)
  .map(([name, value]) => `SET ${name} = ${value}`)
  .join('; ');

type PoolWithOptions = Pool & { options: { options?: string } };
type ClientWithParameters = PoolClient & { connectionParameters?: { options?: string } };

/**
 * Has every connection the pool opens from now on start with `POSTGRES_SESSION_OPTIONS`. A
 * connection opened before (TypeORM's own, unless its `extra.options` carries them, as the
 * service's do) gets them by a `SET` when first acquired, queued ahead of whatever it was
 * acquired for: pg warns about that queueing, and its next major version drops it.
 */
export function configureSessions(pool: Pool): void {
  const options = (pool as PoolWithOptions).options;
  if (!openedWithSettings(options.options)) options.options = [options.options, POSTGRES_SESSION_OPTIONS].filter(Boolean).join(' ');
  const configured = new WeakSet<PoolClient>();
  pool.on('acquire', (client) => {
    if (configured.has(client)) return;
    configured.add(client);
    if (openedWithSettings((client as ClientWithParameters).connectionParameters?.options)) return;
    // A failure is that statement's to report.
    client.query(SET_SESSION_SETTINGS).catch(() => undefined);
  });
}

function openedWithSettings(options: string | undefined): boolean {
  return options?.includes(POSTGRES_SESSION_OPTIONS) === true;
}
