import { DataSource } from 'typeorm';
import { NAMED_VALUE_ROWS } from '../../libs/crud/src/store/store.fixtures';

/** What to select value rows `FROM` with their family and path as columns: SQLite keys them by an integer (`inventory_value_path`). */
export function valueRowsNamed(dataSource: DataSource): string {
  return dataSource.options.type === 'postgres' ? 'inventory_value' : NAMED_VALUE_ROWS;
}

/** A condition on `inventory_value` itself (to delete from it, say) that picks a family's rows at a path. */
export function valueRowsAt(dataSource: DataSource, family: string, path: string): string {
  return dataSource.options.type === 'postgres'
    ? `family = '${family}' AND path = '${path}'`
    : `path_key IN (SELECT key FROM inventory_value_path WHERE family = '${family}' AND path = '${path}')`;
}
