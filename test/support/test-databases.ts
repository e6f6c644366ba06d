import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

/** A database for one suite: a fresh SQLite file, or a fresh PostgreSQL database. */
export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

/**
 * Which databases the e2e suites run on. SQLite always (it is all a user's machine has);
 * PostgreSQL when TEST_DATABASE_URL is set. TEST_DATABASES=postgres narrows the list, which is
 * how `npm run test:pg` runs the PostgreSQL pass alone.
 */
export function databaseKinds(): DatabaseKind[] {
  const chosen = process.env.TEST_DATABASES?.split(',').map((kind) => kind.trim());
  const available: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  if (!chosen) return available;
  for (const kind of chosen) {
    if (!available.includes(kind as DatabaseKind)) {
      throw new Error(`TEST_DATABASES names ${kind}, which is not available (is TEST_DATABASE_URL set?)`);
    }
  }
  return chosen as DatabaseKind[];
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  return kind === 'sqlite' ? createSqliteDatabase() : createPostgresDatabase();
}

function createSqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'inventory-test-'));
  return {
    kind: 'sqlite',
    url: `sqlite:${join(dir, 'inventory.sqlite')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * How long a drop waits for the database's connections to close by themselves. pg-pool's `end()`
 * resolves once it has asked its connections to close, not once they have; forced off, one
 * raised FATAL 57P01 in a pool that no longer listened for errors, an uncaught error blamed on
 * the test running then. A connection still open past this is one a suite left open: forced off.
 */
const CLOSING_GRACE_MS = 2000;

async function untilDisconnected(admin: Client, database: string, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
    if (rows[0].n === 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Each suite gets its own database, so reruns and parallel workers never collide. */
async function createPostgresDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `inventory_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is set but PostgreSQL cannot be reached at ${adminUrl}: ${(error as Error).message}`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await untilDisconnected(client, name, CLOSING_GRACE_MS);
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A suite that needs PostgreSQL: declared on it when TEST_DATABASE_URL is set, otherwise one test
 * saying what it needs (describe.each refuses an empty table).
 */
export function describeOnPostgres(title: string, needs: string, suite: (kind: DatabaseKind) => void): void {
  const kinds = databaseKinds().filter((kind) => kind === 'postgres');
  if (kinds.length === 0) {
    it(`needs TEST_DATABASE_URL to ${needs}`, () => {
      expect(process.env.TEST_DATABASE_URL ?? '').toBe('');
    });
    return;
  }
  describe.each(kinds)(title, suite);
}
