/** The few places where SQLite and PostgreSQL spell the same query differently. */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A whole-value wildcard match (`*` any run, `?` one character), case-sensitive. */
  wildcard(column: string, pattern: string): { sql: string; param: string };
  /** `v.text IN (...)` written so that it uses the dialect's text index. */
  textIn(texts: readonly string[]): { sql: string; params: string[] };
  /** A text as the value index stores it (and so as a query must bind it). */
  indexText(text: string): string;
}

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  // GLOB is case-sensitive (LIKE is not in SQLite) and already means `*` and `?`; only `[` needs escaping.
  wildcard: (column, pattern) => ({ sql: `${column} GLOB ?`, param: pattern.replace(/\[/g, '[[]') }),
  textIn: (texts) => ({ sql: `v.text IN (${marks(texts.length)})`, params: [...texts] }),
  indexText: (text) => text,
};

/**
 * PostgreSQL's B-tree holds at most ~2.7 kB per entry, so its text index covers a prefix
 * (`left(text, 200)`, see the migration); equality looks the prefix up and then compares the
 * whole value, which keeps the answer exact.
 */
export const POSTGRES_TEXT_PREFIX = 200;

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  wildcard: (column, pattern) => ({
    sql: `${column} LIKE ?`,
    param: encodePostgresText(pattern).replace(/[\\%_]/g, (char) => `\\${char}`).replace(/\*/g, '%').replace(/\?/g, '_'),
  }),
  textIn: (texts) => {
    const encoded = texts.map(encodePostgresText);
    const prefixes = texts.map(() => `left(?, ${POSTGRES_TEXT_PREFIX})`).join(', ');
    return { sql: `(left(v.text, ${POSTGRES_TEXT_PREFIX}) IN (${prefixes}) AND v.text IN (${marks(texts.length)}))`, params: [...encoded, ...encoded] };
  },
  indexText: encodePostgresText,
};

/**
 * PostgreSQL text cannot hold U+0000. The index stores U+0000 as U+0001 U+0001 and U+0001 as
 * U+0001 U+0002: one-to-one, and bytewise order is kept, so equality and ranges stay exact.
 */
export function encodePostgresText(text: string): string {
  if (!/[\u0000\u0001]/.test(text)) return text;
  return text.replace(/[\u0000\u0001]/g, (char) => (char === '\u0000' ? '\u0001\u0001' : '\u0001\u0002'));
}

/** `?, ?, ?` for a list of bound values. */
export function marks(count: number): string {
  return new Array(count).fill('?').join(', ');
}

/** Numbers `?` placeholders as `$1, $2, ...` for pg; the compiler never emits a literal `?`. */
export function toPostgresPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
