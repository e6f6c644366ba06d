import type { DataSource } from 'typeorm';
import { toPostgresPlaceholders } from '@inventory/crud';

/** Settings and users SQL is written with `?`; pg wants `$1, $2, ...`. */
function nativeSql(dataSource: DataSource, sql: string): string {
  return dataSource.options.type === 'postgres' ? toPostgresPlaceholders(sql) : sql;
}

export async function runSql<T = unknown>(dataSource: DataSource, sql: string, params: unknown[] = []): Promise<T[]> {
  return dataSource.query<T[]>(nativeSql(dataSource, sql), params);
}
