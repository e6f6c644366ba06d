import type { DataSource } from 'typeorm';
import { runSql } from './sql-text';

/**
 * Reads a setting, creating it with `create()` if absent. Insert-if-absent then re-read, so two
 * processes starting together agree on one value.
 */
export async function ensureSetting(dataSource: DataSource, name: string, create: () => string): Promise<string> {
  await runSql(dataSource, 'INSERT INTO inventory_setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, create()]);
  const rows = await runSql<{ value: string }>(dataSource, 'SELECT value FROM inventory_setting WHERE name = ?', [name]);
  return rows[0].value;
}

/** Sets a mark once; answers true only for the caller that set it. */
export async function claimSetting(dataSource: DataSource, name: string): Promise<boolean> {
  // One statement: two processes starting together on SQLite (no startup lock there) cannot both claim it.
  const claimed = await runSql(
    dataSource,
    'INSERT INTO inventory_setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING RETURNING name',
    [name, new Date().toISOString()],
  );
  return claimed.length > 0;
}
