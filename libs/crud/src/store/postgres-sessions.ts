import type { Pool, PoolClient } from 'pg';

/**
 * Settings every connection of the store's pool gets once, before its first statement.
 *
 * `enable_seqscan = off`: PostgreSQL chooses between a path's index and a scan of the whole value
 * table from estimates, and one set of statistics covers every family's and path's values, so a
 * range on one path is estimated from all of them: "timestamps before 00:01:05" (130 of 900k
 * value rows) was taken for 105k and read by a sequential scan of the table, 55 ms a query. Every
 * statement the store runs has an index that answers it, which a scan can only beat when one path
 * holds most of the table; PostgreSQL still scans where no index applies.
 */
export function configureSessions(pool: Pool): void {
  const configured = new WeakSet<PoolClient>();
  pool.on('acquire', (client) => {
    if (configured.has(client)) return;
    configured.add(client);
    // Queued ahead of whatever the client was acquired for; a failure is that statement's to report.
    client.query('SET enable_seqscan = off').catch(() => undefined);
  });
}
