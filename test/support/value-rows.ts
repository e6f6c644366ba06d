import { DataSource } from 'typeorm';
import { postgresDialect, sqliteDialect, toPostgresPlaceholders } from '@inventory/crud';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';

/** What to select value rows `FROM` with their family and path as columns: SQLite keys them by an integer (`inventory_value_path`). */
export function valueRowsNamed(dataSource: DataSource): string {
  return dataSource.options.type === 'postgres' ? 'inventory_value' : NAMED_VALUE_ROWS;
}

/** The store's own condition on `inventory_value` (to delete from it, say) that picks a family's rows at a path. */
export function valueRowsAt(dataSource: DataSource, family: string, path: string): { sql: string; params: string[] } {
  if (dataSource.options.type === 'postgres') {
    return { sql: toPostgresPlaceholders(postgresDialect.valuePath('inventory_value')), params: [family, path] };
  }
  return { sql: sqliteDialect.valuePath('inventory_value'), params: [family, path] };
}
