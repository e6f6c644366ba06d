import type { DataSource } from 'typeorm';
import { PostgresRecordStore } from '../store/postgres-record.store';
import { RecordStore } from '../store/record-store';
import { SqliteRecordStore } from '../store/sqlite-record.store';

/**
 * The record store for a TypeORM DataSource. TypeORM opens the connection and runs the
 * migrations; the store talks to the driver underneath it, so hot paths skip entity hydration
 * and statements are prepared once.
 */
export function recordStoreFor(dataSource: DataSource): RecordStore {
  const driver = dataSource.driver as unknown as { databaseConnection?: unknown; master?: unknown };
  switch (dataSource.options.type) {
    case 'better-sqlite3':
      return new SqliteRecordStore(driver.databaseConnection as ConstructorParameters<typeof SqliteRecordStore>[0]);
    case 'postgres':
      return new PostgresRecordStore(driver.master as ConstructorParameters<typeof PostgresRecordStore>[0]);
    default:
      throw new Error(`no record store for database type ${dataSource.options.type}`);
  }
}
