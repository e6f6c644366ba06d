import type { DataSource } from 'typeorm';

/** Settings and users SQL is written with `?`; pg wants `$1, $2, ...`. */
export function nativeSql(dataSource: DataSource, sql: string): string {
  if (dataSource.options.type !== 'postgres') return sql;
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

export async function runSql<T = unknown>(dataSource: DataSource, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await dataSource.query(nativeSql(dataSource, sql), params)) as T[];
}
