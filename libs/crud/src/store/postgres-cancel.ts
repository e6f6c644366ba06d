import type { Pool, PoolClient } from 'pg';
import type { StatementStop } from '../core/query/query-budget';

/**
 * Runs one statement of a read or delete on `client`, and cancels it in the server if the
 * budget runs out or the client of the request goes away meanwhile (for a statement that reads
 * for several requests, once every one of them stopped): the request then fails with the
 * budget's own error instead of waiting for the statement.
 */
export async function cancellable<T>(
  pool: Pool,
  client: PoolClient,
  budget: StatementStop | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!budget) return work();
  let cancelling: Promise<unknown> | undefined;
  const backend = backendOf(client);
  const dispose = budget.onStop(() => {
    cancelling = pool.query('SELECT pg_cancel_backend($1)', [backend]).catch(() => undefined);
  });
  try {
    return await work();
  } catch (error) {
    if (cancelling) budget.check();
    throw error;
  } finally {
    dispose();
    // A cancel that arrives once the statement is over is ignored by an idle backend; waiting
    // for it keeps it from landing on whatever this connection runs next.
    await cancelling;
  }
}

/** The PostgreSQL backend process serving `client` (pg keeps it, untyped, from the start-up handshake). */
export function backendOf(client: PoolClient): number {
  return (client as unknown as { processID: number }).processID;
}
