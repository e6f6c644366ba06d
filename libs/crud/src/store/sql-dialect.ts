/**
 * The few places where SQLite and PostgreSQL spell the same query differently.
 *
 * A list of values (`in`, up to 10,000 in a query) is bound as one parameter, a JSON text on
 * SQLite and an array on PostgreSQL, never as one parameter per value: SQLite refuses more than
 * 32,766 variables in a statement and PostgreSQL more than 65,535, and the statement text then
 * depends only on the query's shape, so prepared statements are reused.
 */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** A whole-value wildcard match (`*` any run, `?` one character), case-sensitive. */
  wildcard(column: string, pattern: string): SqlFragment;
  /** `v.text` compared with a text (already in the index's form), written so that the text index answers the range. */
  textCompared(operator: '<' | '<=' | '>' | '>=', text: string): SqlFragment;
  /** `v.text` equal to one of `texts`, written so that it uses the dialect's text index. */
  textIn(texts: readonly string[]): SqlFragment;
  /**
   * `v.text` holding `text` (as the record holds it) somewhere: checked on each entry of the
   * text index a statement reads, not a range of it.
   */
  textContains(text: string): SqlFragment;
  /** `column` equal to one of `values` (all texts or all numbers; at least one). */
  oneOf(column: string, values: readonly string[] | readonly number[]): SqlFragment;
  /** A text as the value index stores it (and so as a query must bind it). */
  indexText(text: string): string;
  /** `indexText`'s inverse: a text read from the value index as the record holds it. */
  storedText(text: string): string;
  /**
   * `v.text`'s order as the text index gives it, for GROUP BY and ORDER BY: SQLite's holds the
   * text; PostgreSQL's its first 200 characters (POSTGRES_TEXT_PREFIX), after which PostgreSQL
   * sorts ties by the whole text, the same order under COLLATE "C".
   */
  readonly textOrder: string;
  /**
   * The condition that value rows `alias` are of a family's path; binds the family, then the
   * path. Both databases key their rows by an integer per family and path
   * (`inventory_value_path`), which the condition looks up once per statement; a path never
   * written has no key and no rows.
   */
  valuePath(alias: string): string;
  /**
   * `SELECT v.seq` (or other `columns` of `v`) of the value rows `v` at a family's path that pass
   * `predicate` (a condition on `v`); binds the family, then the path, then the predicate's own
   * parameters.
   */
  valueSeqs(predicate: string, columns?: string): string;
  /**
   * `r.seq, r.id, r.doc` of the first `limit` value rows in arrival order at a family's path that
   * pass `predicate`, an equality on one value. Both value indexes end in `seq`, so one value's
   * entries are in arrival order already: nothing is sorted and the statement stops at `limit`.
   * A record whose list holds the value twice comes twice, side by side (a `GROUP BY` cost
   * SQLite 4-5 µs of W3's ~45).
   */
  equalRowsInArrivalOrder(family: string, path: string, predicate: SqlFragment, limit: number): SqlFragment;
  /**
   * One row (a `seq` of 1) if some record of `family` holds more than one value at `path`, as
   * its writes marked (migration 1764400000000); none while each holds one at most.
   */
  multiValued(family: string, path: string): SqlFragment;
  /**
   * Order terms on value paths that one statement may sort by; more are sorted in memory.
   * Each term is two correlated lookups per candidate, and a SQLite statement holds the event
   * loop: 170 ms per term on 100k events (16 terms: 6.7 s), so SQLite sorts by one at most.
   * PostgreSQL runs beside the event loop, and the query budget cancels it.
   */
  readonly sqlOrderTerms: number;
  /**
   * `SELECT v.seq` (or other `columns` of `v`) of the value rows at a family's path that pass
   * `condition`, of the records `within` only (bound as one parameter): each candidate probes the (seq, path) index, instead
   * of every value of the path being read.
   */
  valueSeqsWithin(within: readonly number[], family: string, path: string, condition: SqlFragment, columns?: string): SqlFragment;
  /** `SELECT r.seq` of the records `within` of a family whose id passes `predicate` (on `r.id`). */
  idSeqsWithin(within: readonly number[], family: string, predicate: SqlFragment): SqlFragment;
  /**
   * Whether rows a statement answers cross a connection (PostgreSQL: 0.5-0.8 µs each to receive
   * and parse) rather than being read in the process (SQLite), so that a plan counts what it
   * only needs to count.
   */
  readonly rowsCrossAConnection: boolean;
  /** `r.seq` one of the seqs `subquery` selects (its matches, not their complement). */
  seqAmong(subquery: SqlFragment): SqlFragment;
  /** `r.seq` one of `seqs`, bound as one parameter. */
  seqIn(seqs: readonly number[]): SqlFragment;
  /** The value rows `v` of record `r` at a family's path: `FROM … WHERE …` of a correlated subquery that orders by them. */
  valuesOfRecord(family: string, path: string): SqlFragment;
}

export interface SqlFragment {
  sql: string;
  params: unknown[];
  /**
   * Set when the statement looks up one record by its key, and nothing else: a store may then
   * answer it together with the other lookups of its turn (PostgreSQL: `GroupedRecordReads`).
   */
  recordKey?: { family: string; id: string };
  /**
   * Set on a `SELECT` of records that reads one bounded window: reads of the same text may then
   * share one statement (PostgreSQL: `GroupedSelections`).
   */
  shareable?: boolean;
}

/** See `SqlDialect.valuePath`: the same text in both dialects. */
function keyedValuePath(alias: string): string {
  return `${alias}.path_key = (SELECT key FROM inventory_value_path WHERE family = ? AND path = ?)`;
}

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  rowsCrossAConnection: false,
  wildcard: sqliteWildcard,
  textCompared: (operator, text) => ({ sql: `v.text ${operator} ?`, params: [text] }),
  textIn: (texts) => sqliteOneOf('v.text', texts),
  textContains: (text) => ({ sql: 'instr(v.text, ?) > 0', params: [text] }),
  oneOf: (column, values) => sqliteOneOf(column, values),
  indexText: (text) => text,
  storedText: (text) => text,
  textOrder: 'v.text',
  valuePath: keyedValuePath,
  // CROSS JOIN fixes SQLite's join order: from the candidates, never a walk of the path's values per candidate.
  valueSeqsWithin: (within, family, path, condition, columns = 'v.seq') => ({
    sql: `SELECT ${columns} FROM json_each(?) j CROSS JOIN inventory_value_path k CROSS JOIN inventory_value v INDEXED BY inventory_value_seq
          WHERE v.seq = j.value AND ${SQLITE_KEYED_PATH} AND ${condition.sql}`,
    params: [JSON.stringify(within), family, path, ...condition.params],
  }),
  idSeqsWithin: (within, family, predicate) => ({
    sql: `SELECT r.seq FROM json_each(?) j CROSS JOIN inventory_record r ON r.seq = j.value WHERE r.family = ? AND ${predicate.sql}`,
    params: [JSON.stringify(within), family, ...predicate.params],
  }),
  seqIn: (seqs) => ({ sql: 'r.seq IN (SELECT value FROM json_each(?))', params: [JSON.stringify(seqs)] }),
  seqAmong: (subquery) => ({ sql: `r.seq IN (${subquery.sql})`, params: subquery.params }),
  valueSeqs: (predicate, columns = 'v.seq') =>
    `SELECT ${columns} FROM inventory_value_path k CROSS JOIN inventory_value v WHERE ${SQLITE_KEYED_PATH} AND ${predicate}`,
  // The limit is written into the text: bound as a parameter, it made the statement take 55-62 µs
  // instead of 21-24 for ten records (better-sqlite3 12, the same plan; 2026-11-28).
  equalRowsInArrivalOrder: (family, path, predicate, limit) => ({
    sql: `SELECT r.seq, r.id, r.doc FROM inventory_value_path k CROSS JOIN inventory_value v CROSS JOIN inventory_record r
     WHERE ${SQLITE_KEYED_PATH} AND ${predicate.sql} AND r.seq = v.seq ORDER BY v.seq LIMIT ${Math.trunc(limit)}`,
    params: [family, path, ...predicate.params],
  }),
  multiValued: (family, path) => ({
    sql: 'SELECT 1 AS seq FROM inventory_value_path WHERE family = ? AND path = ? AND multi = 1',
    params: [family, path],
  }),
  sqlOrderTerms: 1,
  // Left to itself, SQLite answers MAX(v.text) of one record by walking the path's text index
  // from its end until it meets the record (the MIN/MAX optimization): a scan of the path per
  // candidate. Ordering 20k events by timestamp took 9.5-10.7 s; the (seq, path_key) index
  // finds the record's rows directly.
  valuesOfRecord: (family, path) => ({
    sql: `inventory_value v INDEXED BY inventory_value_seq WHERE v.seq = r.seq AND ${keyedValuePath('v')}`,
    params: [family, path],
  }),
};

/**
 * Value rows `v` of the path whose key row is `k` (binds the family, then the path), for a join
 * that reads `k` first. SQLite uses `valuePath`'s scalar subquery as an index bound only outside
 * an OR: in `v.num > ? OR (v.kind IN ('s', 'b') AND v.text > ?)` (a numeric range) or an `in`
 * of several kinds, each branch then scanned every value row of the database (a numeric range
 * on 100k events: 150–170 ms for 97 matches), while the join's `k.key` bounds both branches.
 */
export const SQLITE_KEYED_PATH = 'v.path_key = k.key AND k.family = ? AND k.path = ?';

/** The JavaScript function SQLite calls for what GLOB cannot do; see `SqliteRecordStore`. */
export const SQLITE_WILDCARD_FUNCTION = 'inventory_wildcard';

/**
 * GLOB is case-sensitive (LIKE is not in SQLite) and already means `*` and `?`; only `[` needs
 * escaping. But GLOB reads text only up to its first NUL, so a value holding one (or a pattern)
 * is matched by `SQLITE_WILDCARD_FUNCTION` instead. The range on the pattern's literal prefix
 * keeps the text index in use: every match starts with it, NUL or not.
 */
function sqliteWildcard(column: string, pattern: string): SqlFragment {
  if (pattern.includes('\u0000')) return { sql: `${SQLITE_WILDCARD_FUNCTION}(${column}, ?)`, params: [pattern] };
  const glob = pattern.replace(/\[/g, '[[]');
  const match = `(CASE WHEN instr(${column}, char(0)) = 0 THEN ${column} GLOB ? ELSE ${SQLITE_WILDCARD_FUNCTION}(${column}, ?) END)`;
  const prefix = wildcardPrefix(pattern);
  if (prefix === '') return { sql: match, params: [glob, pattern] };
  const above = successor(prefix);
  if (above === undefined) return { sql: `(${column} >= ? AND ${match})`, params: [prefix, glob, pattern] };
  return { sql: `(${column} >= ? AND ${column} < ? AND ${match})`, params: [prefix, above, glob, pattern] };
}

/** `v.text` starting with `prefix` (as the record holds it), as a range of the text index (texts compare bytewise in both). */
export function textStartingWith(dialect: SqlDialect, prefix: string): SqlFragment {
  const from = dialect.indexText(prefix);
  const lower = dialect.textCompared('>=', from);
  const above = successor(from);
  if (above === undefined) return lower;
  const upper = dialect.textCompared('<', above);
  return { sql: `${lower.sql} AND ${upper.sql}`, params: [...lower.params, ...upper.params] };
}

/** The text every value a wildcard matches starts with: up to its first `*` or `?`. */
function wildcardPrefix(pattern: string): string {
  return /^[^*?]*/.exec(pattern)![0];
}

/** The first text above every text that starts with `prefix`, in code point order (none past U+10FFFF). */
export function successor(prefix: string): string | undefined {
  const points = Array.from(prefix, (char) => char.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}

/**
 * `json_each` reads the list back with its types (TEXT stays TEXT, numbers are numbers), and
 * SQLite looks each value up in the column's index as it would a literal list. A lone
 * surrogate is bound directly as U+FFFD (the UTF-8 conversion replaces it), so it is replaced
 * in the JSON text alike.
 */
const LONE_SURROGATE = /\p{Cs}/gu;

function sqliteOneOf(column: string, values: readonly (string | number)[]): SqlFragment {
  if (values.length === 1) return { sql: `${column} = ?`, params: [values[0]] };
  const wellFormed = values.map((value) => (typeof value === 'string' ? value.replace(LONE_SURROGATE, '\uFFFD') : value));
  return { sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(wellFormed)] };
}

/**
 * PostgreSQL's B-tree holds at most ~2.7 kB per entry, so its text index covers a prefix
 * (`left(text, 200)`, see the migration); equality looks the prefix up and then compares the
 * whole value, which keeps the answer exact.
 */
export const POSTGRES_TEXT_PREFIX = 200;

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  rowsCrossAConnection: true,
  wildcard: postgresWildcard,
  textCompared: (operator, text) => postgresTextCompared(operator, text),
  textIn: (texts) => {
    const encoded = texts.map(encodePostgresText);
    if (encoded.length === 1)
      return {
        sql: `(left(v.text, ${POSTGRES_TEXT_PREFIX}) = left(?, ${POSTGRES_TEXT_PREFIX}) AND v.text = ?)`,
        params: [encoded[0], encoded[0]],
      };
    // The prefixes are cut by PostgreSQL itself, so they are the index's to the character.
    return {
      sql: `(left(v.text, ${POSTGRES_TEXT_PREFIX}) = ANY(ARRAY(SELECT left(t, ${POSTGRES_TEXT_PREFIX}) FROM unnest(?::text[]) t)) AND v.text = ANY(?::text[]))`,
      params: [encoded, encoded],
    };
  },
  oneOf: (column, values) => {
    if (values.length === 1) return { sql: `${column} = ?`, params: [values[0]] };
    const type = typeof values[0] === 'number' ? 'float8' : 'text';
    return { sql: `${column} = ANY(?::${type}[])`, params: [[...values]] };
  },
  // The escape maps each character to a fixed text, so a text held keeps its escaped form held.
  textContains: (text) => ({ sql: 'strpos(v.text, ?) > 0', params: [encodePostgresText(text)] }),
  indexText: encodePostgresText,
  storedText: decodePostgresText,
  textOrder: `left(v.text, ${POSTGRES_TEXT_PREFIX}), v.text`,
  valuePath: keyedValuePath,
  valueSeqsWithin: (within, family, path, condition, columns = 'v.seq') => ({
    sql: `SELECT ${columns} FROM unnest(?::bigint[]) AS j(seq) CROSS JOIN LATERAL ${postgresRecordValues('j.seq')} WHERE ${condition.sql}`,
    params: [[...within], family, path, ...condition.params],
  }),
  idSeqsWithin: (within, family, predicate) => ({
    sql: `SELECT r.seq FROM unnest(?::bigint[]) AS j(seq) JOIN inventory_record r ON r.seq = j.seq WHERE r.family = ? AND ${predicate.sql}`,
    params: [[...within], family, ...predicate.params],
  }),
  seqIn: (seqs) => ({ sql: 'r.seq = ANY(?::bigint[])', params: [[...seqs]] }),
  // As `IN (subquery)`, PostgreSQL chose between probing each match and walking every record of
  // the family by its estimate of the matches, which a text range on one path takes from every
  // path's texts: 97 matches taken for 13k, and a merge join over all 100k records (47 ms). An
  // array of the matches, built first, is looked up in (family, seq): cost follows the matches.
  // Never for a complement: `NOT … = ANY` of an array that is not a constant compares each record
  // with every element.
  seqAmong: (subquery) => ({ sql: `r.seq = ANY(ARRAY(${subquery.sql}))`, params: subquery.params }),
  valueSeqs: (predicate, columns = 'v.seq') => `SELECT ${columns} FROM inventory_value v WHERE ${keyedValuePath('v')} AND ${predicate}`,
  // The text index holds (path_key, left(text, 200), seq) and the number index (path_key, num,
  // seq), so the walk is in arrival order whatever PostgreSQL estimates, and the LIMIT stops it
  // (plans: postgres-index.e2e-spec.ts; what it saves: selection-plan's `equalityRows`). A
  // record is found by (family, seq), so the family is bound twice.
  equalRowsInArrivalOrder: (family, path, predicate, limit) => ({
    sql: `SELECT r.seq, r.id, r.doc FROM inventory_value v JOIN inventory_record r ON r.family = ? AND r.seq = v.seq
     WHERE ${keyedValuePath('v')} AND ${predicate.sql} ORDER BY v.seq LIMIT ${Math.trunc(limit)}`,
    params: [family, family, path, ...predicate.params],
  }),
  multiValued: (family, path) => ({
    sql: 'SELECT 1 AS seq FROM inventory_value_multi WHERE family = ? AND path = ?',
    params: [family, path],
  }),
  sqlOrderTerms: Number.MAX_SAFE_INTEGER,
  valuesOfRecord: (family, path) => ({ sql: `${postgresRecordValues('r.seq')} WHERE true`, params: [family, path] }),
};

/**
 * The index holds `left(text, 200)` (POSTGRES_TEXT_PREFIX), so a range on the whole text alone
 * reads every entry of the path: a five-second time window on 100k events took 118-208 ms.
 * Under COLLATE "C" a text at or above a bound has its prefix at or above the bound's prefix
 * (and below: at or below), so that weaker condition on the prefix is implied, bounds the
 * index's range, and the whole text's comparison keeps the answer exact.
 */
function postgresTextCompared(operator: '<' | '<=' | '>' | '>=', text: string): SqlFragment {
  const prefixOperator = operator === '<' || operator === '<=' ? '<=' : '>=';
  return {
    sql: `(left(v.text, ${POSTGRES_TEXT_PREFIX}) ${prefixOperator} left(?, ${POSTGRES_TEXT_PREFIX}) AND v.text ${operator} ?)`,
    params: [text, text],
  };
}

/**
 * The value rows `v` of the record whose seq is `seq` at a family's path (binds the family, then
 * the path), for a probe per record. Left to choose, PostgreSQL probed a record through the
 * path's number or text index, (path, …, seq), reading every entry of the path per record,
 * whenever its statistics made that index look small, as they do until the next ANALYZE after a
 * path's rows are built (one learned from a query): 6.7 ms a probe at 100k events, and 20k
 * candidates ordered by such a path ran into the 10 s query budget. Only the (seq, path_key)
 * index answers this subquery's own conditions, and OFFSET 0 keeps the caller's conditions on the
 * value out of it.
 */
function postgresRecordValues(seq: string): string {
  return `(SELECT * FROM inventory_value v WHERE v.seq = ${seq} AND ${keyedValuePath('v')} OFFSET 0) v`;
}

/**
 * The index stores NUL and U+0001 as two characters (see encodePostgresText), which LIKE's `_`
 * cannot take as one: a value holding U+0001 is matched by a regular expression that can. On
 * the value index, a range on the pattern's literal prefix keeps the index in use, as on SQLite:
 * without it PostgreSQL read every text of the path from the table (`host-00012*` on 100k
 * events: 21-33 ms).
 */
function postgresWildcard(column: string, pattern: string): SqlFragment {
  const match = {
    sql: `(CASE WHEN strpos(${column}, chr(1)) = 0 THEN ${column} LIKE ? ELSE ${column} ~ ? END)`,
    params: [
      encodePostgresText(pattern)
        .replace(/[\\%_]/g, (char) => `\\${char}`)
        .replace(/\*/g, '%')
        .replace(/\?/g, '_'),
      postgresEncodedWildcard(pattern),
    ],
  };
  const prefix = wildcardPrefix(pattern);
  if (column !== 'v.text' || prefix === '') return match;
  const range = textStartingWith(postgresDialect, prefix);
  return { sql: `(${range.sql} AND ${match.sql})`, params: [...range.params, ...match.params] };
}

/** A wildcard as a PostgreSQL regular expression over encoded text, where a character may take two. */
function postgresEncodedWildcard(pattern: string): string {
  const one = '(?:\u0001.|[^\u0001])';
  let out = '';
  for (const char of pattern) {
    if (char === '*') out += `${one}*`;
    else if (char === '?') out += one;
    else out += encodePostgresText(char).replace(/[\\^$.|?*+()[\]{}]/g, (meta) => `\\${meta}`);
  }
  return `^(?:${out})$`;
}

/**
 * PostgreSQL text cannot hold U+0000. The index stores U+0000 as U+0001 U+0001 and U+0001 as
 * U+0001 U+0002: one-to-one, and bytewise order is kept, so equality and ranges stay exact.
 */
export function encodePostgresText(text: string): string {
  // eslint-disable-next-line no-control-regex -- NUL and \u0001 are the characters this escapes
  if (!/[\u0000\u0001]/.test(text)) return text;
  // eslint-disable-next-line no-control-regex -- as above
  return text.replace(/[\u0000\u0001]/g, (char) => (char === '\u0000' ? '\u0001\u0001' : '\u0001\u0002'));
}

/** `encodePostgresText`'s inverse. */
export function decodePostgresText(text: string): string {
  if (!text.includes('\u0001')) return text;
  // eslint-disable-next-line no-control-regex -- the escape character this undoes
  return text.replace(/\u0001([\u0001\u0002])/g, (_pair, second: string) => (second === '\u0001' ? '\u0000' : '\u0001'));
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
