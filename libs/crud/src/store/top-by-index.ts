import { PlanPart, rows, seqs } from './plan-step';
import { RecordSelection } from './record-selection';
import { NARROWING_LIMIT } from './seq-tree-plan';
import { POSTGRES_TEXT_PREFIX, postgresDialect, SqlDialect, SqlFragment, sqliteDialect } from './sql-dialect';

/** Windows that end past this many records are sorted as before. */
export const TOP_BY_INDEX_MOST = 1_000;
/** Index entries read before giving up (candidates too sparse among them) and sorting as before. */
export const TOP_BY_INDEX_WALK = 50_000;
const PAGE = 512;

/**
 * The first `offset + count` records of a read ordered by one value path, found by walking
 * that path's index in order instead of ranking every candidate: `ORDER BY` a correlated
 * lookup costs two index probes per candidate and a sort, so "the latest 10 events by
 * timestamp" cost 170-300 ms on 100k events and grew with the family.
 *
 * The order is `RecordSelection.orderBy`'s to the record: by the record's largest (descending;
 * smallest ascending) number at the path, then its largest (smallest) text, then arrival;
 * records without a number after those with one, and without either last. So the walk takes
 * the numbers' index first: a record's first entry in that direction holds its key, records of
 * one number are ranked by their text in SQL (texts compare bytewise there, not in JavaScript),
 * and a number is always read whole, so the last group is complete. Only if numbers run out
 * does it walk the texts of records that hold none. Undefined (sort as before) when the window
 * is large, when records without a value at the path would be needed, or when the candidates
 * are so sparse that the walk reads more than TOP_BY_INDEX_WALK entries.
 */
export function* topByIndex(selection: RecordSelection): PlanPart<number[] | undefined> {
  const { spec } = selection;
  const wanted = spec.offset + (spec.count ?? Number.MAX_SAFE_INTEGER);
  const [term] = spec.order;
  // One order term on a value path, and SQL alone decides what matches (`walksIndexForOrder`).
  if (wanted > TOP_BY_INDEX_MOST) return undefined;
  const listed = selection.candidateList;
  // Few candidates sort quickly as they are; many are what the walk is for.
  if (listed && listed.length <= NARROWING_LIMIT) return undefined;
  const listedSet = listed ? new Set(listed) : undefined;
  const { excluded } = selection;
  const isCandidate = (seq: number) => (listedSet ? listedSet.has(seq) : !excluded?.has(seq));
  const path = term.path.join('.');
  const walk = new IndexWalk(spec.family, path, term.descending, selection.dialect);
  const ranked: number[] = [];
  const seen = new Set<number>();
  for (const column of ['num', 'text'] as const) {
    let group: number[] = [];
    let groupValue: unknown;
    for (;;) {
      const page = yield* walk.next(column);
      if (page === undefined) return undefined;
      let ended = page.length < PAGE;
      for (const entry of page) {
        if (group.length > 0 && entry.value !== groupValue) {
          ranked.push(...(yield* rankGroup(group, column, spec.family, path, term.descending, selection.dialect)));
          group = [];
          if (ranked.length >= wanted) {
            ended = true;
            break;
          }
        }
        groupValue = entry.value;
        // Seen: ranked (or passed by) at a larger (smaller) value; in the texts, also every record
        // holding a number, as the numbers were walked to their end before the texts began.
        if (seen.has(entry.seq)) continue;
        seen.add(entry.seq);
        if (isCandidate(entry.seq)) group.push(entry.seq);
      }
      if (ended) break;
    }
    if (group.length > 0) ranked.push(...(yield* rankGroup(group, column, spec.family, path, term.descending, selection.dialect)));
    if (ranked.length >= wanted) return ranked.slice(0, wanted);
  }
  // Every record with a value at the path is ranked; the ones without would follow in arrival order.
  return ranked.length >= wanted ? ranked.slice(0, wanted) : undefined;
}

/** Records of one number: by their largest (smallest) text, then arrival. Of one text: by arrival. */
function* rankGroup(
  group: number[],
  column: 'num' | 'text',
  family: string,
  path: string,
  descending: boolean,
  dialect: SqlDialect,
): PlanPart<number[]> {
  if (column === 'text' || group.length === 1) return [...group].sort((a, b) => a - b);
  const direction = descending ? 'DESC' : 'ASC';
  const values = dialect.valueSeqsWithin(group, family, path, { sql: '1=1', params: [] });
  return yield* seqs({
    sql: `${values.sql} GROUP BY v.seq ORDER BY ${descending ? 'MAX' : 'MIN'}(v.text) ${direction} NULLS LAST, v.seq ASC`,
    params: values.params,
  });
}

/** Pages of one path's index entries, numbers or texts, in the order's direction. */
class IndexWalk {
  private read = 0;
  private after: { value: unknown; seq: number } | undefined;
  private column: 'num' | 'text' = 'num';

  constructor(
    private readonly family: string,
    private readonly path: string,
    private readonly descending: boolean,
    private readonly dialect: SqlDialect,
  ) {}

  /** The next page, or undefined past TOP_BY_INDEX_WALK entries. */
  *next(column: 'num' | 'text'): PlanPart<{ seq: number; value: unknown }[] | undefined> {
    if (column !== this.column) {
      this.column = column;
      this.after = undefined;
    }
    if (this.read > TOP_BY_INDEX_WALK) return undefined;
    const fragment = this.dialect.name === 'sqlite' ? this.sqlitePage(column) : this.postgresPage(column);
    const page = (yield* rows(fragment)) as unknown as { seq: number; value: unknown }[];
    this.read += page.length;
    if (page.length > 0) this.after = page[page.length - 1];
    return page;
  }

  private sqlitePage(column: 'num' | 'text'): SqlFragment {
    const direction = this.descending ? 'DESC' : 'ASC';
    const beyond = this.after ? ` AND (v.${column}, v.seq) ${this.descending ? '<' : '>'} (?, ?)` : '';
    return {
      sql: `SELECT v.seq AS seq, v.${column} AS value FROM inventory_value v INDEXED BY inventory_value_${column}
        WHERE ${sqliteDialect.valuePath('v')} AND v.${column} IS NOT NULL${beyond}
        ORDER BY v.${column} ${direction}, v.seq ${direction} LIMIT ${PAGE}`,
      params: [this.family, this.path, ...(this.after ? [this.after.value, this.after.seq] : [])],
    };
  }

  /**
   * PostgreSQL's text index holds `left(text, 200)` (POSTGRES_TEXT_PREFIX): texts are walked in
   * the order of that prefix, which the index gives, and then of the whole text, which PostgreSQL
   * sorts within each run of one prefix; the bound on the prefix keeps each page a range of the
   * index.
   */
  private postgresPage(column: 'num' | 'text'): SqlFragment {
    const direction = this.descending ? 'DESC' : 'ASC';
    const past = this.descending ? '<' : '>';
    const params: unknown[] = [this.family, this.path];
    let sql = `SELECT v.seq AS seq, v.${column} AS value FROM inventory_value v WHERE ${postgresDialect.valuePath('v')} AND v.${column} IS NOT NULL`;
    if (column === 'num') {
      if (this.after) {
        sql += ` AND (v.num, v.seq) ${past} (?, ?)`;
        params.push(this.after.value, this.after.seq);
      }
      return { sql: `${sql} ORDER BY v.num ${direction}, v.seq ${direction} LIMIT ${PAGE}`, params };
    }
    const prefix = `left(v.text, ${POSTGRES_TEXT_PREFIX})`;
    if (this.after) {
      sql += ` AND ${prefix} ${past}= left(?, ${POSTGRES_TEXT_PREFIX}) AND (${prefix}, v.text, v.seq) ${past} (left(?, ${POSTGRES_TEXT_PREFIX}), ?, ?)`;
      params.push(this.after.value, this.after.value, this.after.value, this.after.seq);
    }
    return { sql: `${sql} ORDER BY ${prefix} ${direction}, v.text ${direction}, v.seq ${direction} LIMIT ${PAGE}`, params };
  }
}
