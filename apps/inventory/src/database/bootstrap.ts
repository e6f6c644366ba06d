import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { JsonObject, recordStoreFor, ValueIndex } from '@inventory/crud';
import { AppConfig } from '../config/app-config';
import demoData from '../demo/demo-data.json';
import { claimSetting, ensureSetting } from './settings';
import { findPasswordHash, setUserPassword } from './users';
import { withStartupLock } from './startup-lock';
import { BootstrapResult } from './bootstrap-result';

const logger = new Logger('Bootstrap');

/** Migrations, then what a new database needs: a JWT secret, the admin user, the demo data. */
export async function bootstrapDatabase(dataSource: DataSource, config: AppConfig): Promise<BootstrapResult> {
  return withStartupLock(dataSource, async () => {
    await runMigrations(dataSource);
    const jwtSecret = config.jwt.secret ?? (await ensureSetting(dataSource, 'jwt_secret', () => randomBytes(48).toString('base64url')));
    await ensureAdmin(dataSource, config.admin);
    // A database is new on its first start only: one first started without the demo data does
    // not get it later. (Databases first started before this mark existed get it on their next start.)
    const firstStart = await claimSetting(dataSource, 'first_start');
    if (config.demoData && firstStart) await loadDemoData(dataSource);
    return { jwtSecret };
  });
}

/**
 * On SQLite, processes starting together on a new file are not serialised by a lock (PostgreSQL's
 * advisory lock, withStartupLock): both may see the migrations pending, and the second to write
 * then fails (its tables exist, or its snapshot is stale). That failure is only a failure if the
 * migrations are still pending afterwards; otherwise another process ran them, and this start
 * goes on. Found by the two-process reference race test on a loaded CI machine.
 */
async function runMigrations(dataSource: DataSource): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dataSource.runMigrations({ transaction: 'all' });
      return;
    } catch (error) {
      if (dataSource.options.type === 'postgres' || attempt >= MIGRATION_ATTEMPTS) throw error;
      if (!(await dataSource.showMigrations())) return;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

const MIGRATION_ATTEMPTS = 3;

async function ensureAdmin(dataSource: DataSource, admin: AppConfig['admin']): Promise<void> {
  if (admin.password !== undefined) {
    await setUserPassword(dataSource, admin.username, admin.password);
    return;
  }
  if (await findPasswordHash(dataSource, admin.username)) return;
  const password = randomBytes(18).toString('base64url');
  await setUserPassword(dataSource, admin.username, password);
  // Printed once, on the start that created the user; only its hash is stored.
  logger.warn(`Created Basic user "${admin.username}" with password: ${password}`);
}

/** Once per database (also for one first started before `first_start` was marked): records deleted later do not come back on restart. */
async function loadDemoData(dataSource: DataSource): Promise<void> {
  if (!(await claimSetting(dataSource, 'demo_data_loaded'))) return;
  const store = recordStoreFor(dataSource);
  for (const [family, records] of Object.entries(demoData as Record<string, JsonObject[]>)) {
    // Every path: at worst rows a family does not consult, never rows it lacks.
    await store.insert(
      family,
      records.map((doc) => ({ id: doc.id as string, doc })),
      ValueIndex.EVERY_PATH,
    );
  }
  logger.log('Loaded the demo records');
}
