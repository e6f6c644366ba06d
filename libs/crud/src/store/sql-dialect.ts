/** The few places where SQLite and PostgreSQL spell the same query differently. */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A whole-value wildcard match (`*` any run, `?` one character), case-sensitive. */
  wildcard(column: string, pattern: string): { sql: string; param: string };
}

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  // GLOB is case-sensitive (LIKE is not in SQLite) and already means `*` and `?`; only `[` needs escaping.
  wildcard: (column, pattern) => ({ sql: `${column} GLOB ?`, param: pattern.replace(/\[/g, '[[]') }),
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  wildcard: (column, pattern) => ({
    sql: `${column} LIKE ?`,
    param: pattern.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/\*/g, '%').replace(/\?/g, '_'),
  }),
};

/** Numbers `?` placeholders as `$1, $2, ...` for pg; the compiler never emits a literal `?`. */
export function toPostgresPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
