import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { Database } from 'better-sqlite3';
// By path, not '@inventory/crud': the TypeORM CLI (ormconfig.ts) loads this file without path aliases.
import { POSTGRES_SESSION_OPTIONS } from '../../../../libs/crud/src/store/postgres-sessions';
import { AppConfig } from '../config/app-config';
import { InitialSchema1763700000000 } from '../migrations/1763700000000-initial-schema';
import { PostgresValueRowsCascadePerStatement1764100000000 } from '../migrations/1764100000000-postgres-value-rows-cascade-per-statement';
import { SqliteValueRowsCascadeByTrigger1764200000000 } from '../migrations/1764200000000-sqlite-value-rows-cascade-by-trigger';
import { SqliteValuePathKeys1764300000000 } from '../migrations/1764300000000-sqlite-value-path-keys';
import { MultiValuedPaths1764400000000 } from '../migrations/1764400000000-multi-valued-paths';
import { PostgresValuePathKeys1764500000000 } from '../migrations/1764500000000-postgres-value-path-keys';
import { PostgresRecordDocAsText1764600000000 } from '../migrations/1764600000000-postgres-record-doc-as-text';
import { PostgresRecordsKeyedByFamily1764700000000 } from '../migrations/1764700000000-postgres-records-keyed-by-family';

export const MIGRATIONS = [
  InitialSchema1763700000000,
  PostgresValueRowsCascadePerStatement1764100000000,
  SqliteValueRowsCascadeByTrigger1764200000000,
  SqliteValuePathKeys1764300000000,
  MultiValuedPaths1764400000000,
  PostgresValuePathKeys1764500000000,
  PostgresRecordDocAsText1764600000000,
  PostgresRecordsKeyedByFamily1764700000000,
];

/** The one source of database options, for the app and for the TypeORM CLI (ormconfig.ts). */
export function dataSourceOptions(database: AppConfig['database']): DataSourceOptions {
  if (database.type === 'postgres') {
    return {
      type: 'postgres',
      url: database.url,
      migrations: MIGRATIONS,
      migrationsTransactionMode: 'all',
      synchronize: false,
      // A stopped database must answer 503 within seconds, never hang a request. Every
      // connection, TypeORM's first included, starts with the store's session settings.
      extra: {
        max: 10,
        connectionTimeoutMillis: 3000,
        query_timeout: 30000,
        statement_timeout: 30000,
        options: POSTGRES_SESSION_OPTIONS,
      },
    };
  }
  if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
  return {
    type: 'better-sqlite3',
    database: database.path,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'all',
    synchronize: false,
    enableWAL: database.path !== ':memory:',
    prepareDatabase: prepareSqliteConnection,
  };
}

/** How the service opens its SQLite connection; the benchmarks of the store open theirs alike. */
export function prepareSqliteConnection(db: Database): void {
  // WAL with synchronous=NORMAL: a committed write survives the process being killed.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Checkpoint by itself only every ~160 MB of WAL (SQLite's default: 4 MB): a page rewritten
  // by many batches is copied once per checkpoint (batch ingest +20–45 % at 40 MB), and the
  // checkpoint worker (WalCheckpointer) copies the rest beside the event loop, whose own
  // checkpoints, syncs included, then come four times less often (W4 +5 %, README
  // "Performance"). The WAL file grows to that size before it starts over.
  db.pragma('wal_autocheckpoint = 40000');
  // 8 MB of page cache instead of better-sqlite3's 16 MB: enough for every B-tree's interior
  // pages at 1M records, and it counts in the RSS a full streamed read must keep under 300 MB.
  db.pragma('cache_size = -8000');
}
