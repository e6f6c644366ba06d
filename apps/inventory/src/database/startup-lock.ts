import type { DataSource } from 'typeorm';

/** An arbitrary constant: the advisory lock id every inventory process takes while it sets up. */
const STARTUP_LOCK_ID = 7_351_004_211;

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so that processes starting together on
 * an empty database run migrations and load demo data one after the other, and so exactly once.
 * SQLite takes no such lock: bootstrap.ts tolerates a migration another process ran first, and
 * the rest of the set-up claims what it creates with single statements.
 */
export async function withStartupLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (dataSource.options.type !== 'postgres') return work();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_ID]);
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_ID]);
    }
  } finally {
    await runner.release();
  }
}
