import { DataSource } from 'typeorm';
import { postgresDialect, sqliteDialect, toPostgresPlaceholders } from '@inventory/crud';

/** The store's own condition on `inventory_value` (to delete from it, say) that picks a family's rows at a path. */
export function valueRowsAt(dataSource: DataSource, family: string, path: string): { sql: string; params: string[] } {
  if (dataSource.options.type === 'postgres') {
    return { sql: toPostgresPlaceholders(postgresDialect.valuePath('inventory_value')), params: [family, path] };
  }
  return { sql: sqliteDialect.valuePath('inventory_value'), params: [family, path] };
}
