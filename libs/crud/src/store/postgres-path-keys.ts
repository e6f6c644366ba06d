/** Makes the keys of paths `$2` of family `$1` that have none, in one order; answers the paths it made. */
export const MAKE_PATH_KEYS_SQL = `INSERT INTO inventory_value_path (family, path) SELECT $1, p FROM unnest($2::text[]) AS p ORDER BY p
  ON CONFLICT (family, path) DO NOTHING RETURNING path`;

/** Runs one statement on the pool or on a transaction's client, and answers its rows. */
export type PathKeyQuery = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/**
 * The integer that stands for a family's path in PostgreSQL's value rows
 * (`inventory_value_path`, migration 1764500000000), as `SqlitePathKeys` does for SQLite.
 *
 * Several service processes may share the database, so a key is made by the database (an
 * `INSERT … ON CONFLICT DO NOTHING`, then a read of the row, whoever made it) and never by this
 * process. A key made inside a transaction can roll back with it, and the path then gets another
 * key: rows written later under the one kept would be found by no query. So only keys known to
 * be committed are kept: those looked up outside any transaction, and those a transaction found
 * already made. Keys are never deleted, so a committed key never changes.
 */
export class PostgresPathKeys {
  private readonly committed = new Map<string, Map<string, number>>();

  /**
   * The key of each of `paths` in `family`, made for the paths that have none. `query` runs on
   * the pool (each statement commits by itself) or, `inTransaction`, in a transaction that may
   * roll back.
   */
  async keys(query: PathKeyQuery, inTransaction: boolean, family: string, paths: Iterable<string>): Promise<Map<string, number>> {
    let known = this.committed.get(family);
    const missing = [...new Set(paths)].filter((path) => !known?.has(path)).sort();
    if (missing.length === 0) return known ?? new Map<string, number>();
    // In one order (MAKE_PATH_KEYS_SQL), so that two transactions making the same keys wait for each other instead of deadlocking.
    const made = await query<{ path: string }>(MAKE_PATH_KEYS_SQL, [family, missing]);
    const found = await query<{ key: number; path: string }>(
      'SELECT key, path FROM inventory_value_path WHERE family = $1 AND path = ANY($2::text[])',
      [family, missing],
    );
    const uncommitted = new Set(inTransaction ? made.map((row) => row.path) : []);
    const keys = new Map(known);
    for (const { key, path } of found) {
      keys.set(path, key);
      if (uncommitted.has(path)) continue;
      if (!known) this.committed.set(family, (known = new Map<string, number>()));
      known.set(path, key);
    }
    return keys;
  }
}
