/**
 * A fresh, empty database per phase, removed afterwards: SQLite (a file under bench/tmp/) by
 * default, PostgreSQL when BENCH_DATABASE_URL is set (a new database on that server, created
 * through the URL's own database and dropped at the end), so no run sees another's records.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { TMP } from './processes';

export interface BenchDatabase {
  /** DATABASE_URL for the service. */
  url: string;
  /** What the report says it ran on. */
  label: string;
  /**
   * After a bulk load, before measuring: brings the database to the state it keeps at rest, so
   * that no window runs beside the upkeep the load left due. On PostgreSQL, autovacuum would
   * vacuum and analyze the loaded tables within its one-minute nap, on the cores both servers run
   * on, in whichever window came then (the raw bound's W3 ran at 5.0k or 7.2k req/s from run to
   * run); `VACUUM ANALYZE` does it now. SQLite has no such upkeep.
   */
  settle(): Promise<void>;
  drop(): Promise<void>;
}

export async function freshDatabase(tag: string): Promise<BenchDatabase> {
  const admin = process.env.BENCH_DATABASE_URL;
  const stamp = `${process.pid}_${Date.now()}`;
  if (!admin) {
    const file = join(TMP, `bench-${tag}-${stamp}.sqlite`);
    return {
      url: `sqlite:${file}`,
      label: 'SQLite (file under bench/tmp/)',
      settle: async () => undefined,
      drop: async () => {
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
      },
    };
  }
  const name = `inventory_bench_${tag}_${stamp}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  let version: string;
  try {
    await client.query(`CREATE DATABASE "${name}"`);
    version = ((await client.query('SHOW server_version')).rows[0] as { server_version: string }).server_version;
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: `PostgreSQL ${version} (${url.hostname}:${url.port || 5432})`,
    settle: async () => {
      const client = new Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query('VACUUM ANALYZE');
      } finally {
        await client.end();
      }
    },
    drop: async () => {
      const dropper = new Client({ connectionString: admin });
      await dropper.connect();
      try {
        // FORCE (PostgreSQL 13+) ends connections a killed service may have left behind.
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
