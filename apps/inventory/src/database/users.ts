import type { DataSource } from 'typeorm';
import { hashPassword } from '@inventory/auth';
import { runSql } from './sql-text';

export async function findPasswordHash(dataSource: DataSource, username: string): Promise<string | undefined> {
  const rows = await runSql<{ password_hash: string }>(dataSource, 'SELECT password_hash FROM inventory_user WHERE username = ?', [
    username,
  ]);
  return rows[0]?.password_hash;
}

/** Adds the user, or replaces the password of an existing one. */
export async function setUserPassword(dataSource: DataSource, username: string, password: string): Promise<void> {
  await runSql(
    dataSource,
    'INSERT INTO inventory_user (username, password_hash) VALUES (?, ?) ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash',
    [username, await hashPassword(password)],
  );
}
