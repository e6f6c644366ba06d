import Database from 'better-sqlite3';
import { parseRecordQuery } from '../core/query/query-parser';
import { JsonObject } from '../core/query/query.types';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { MemoryOrder } from './memory-order';
import { RecordSelection } from './record-selection';
import { selectionPlan } from './selection-plan';
import { NARROWING_LIMIT } from './seq-tree-plan';
import { sqliteDialect } from './sql-dialect';
import { SqliteRecordStore } from './sqlite-record.store';
import { Clause, createDatabase, insertAll, op, statementsOn } from './store.fixtures';
import { readSelectionNow } from './selection-reader';
import { ValueIndex } from './value-index';

/**
 * More records than NARROWING_LIMIT, so that a filter leaves the walk many candidates. `v` holds
 * a number (many ties), a text (ties, and texts of digits that sort among the numbers' texts),
 * a boolean, a list of a number and a text, null, an object, or nothing.
 */
const COUNT = NARROWING_LIMIT + 1_500;
const DOCS: JsonObject[] = Array.from({ length: COUNT }, (_, i) => {
  const doc: JsonObject = { id: `r${i}`, i, group: i % 9 };
  switch (i % 8) {
    case 0:
    case 1:
      doc.v = (i * 37) % 211;
      break;
    case 2:
      doc.v = `t${(i * 13) % 97}`;
      break;
    case 3:
      doc.v = String((i * 7) % 50);
      break;
    case 4:
      doc.v = [(i * 11) % 211, `u${i % 5}`];
      break;
    case 5:
      doc.v = i % 3 === 0;
      break;
    case 6:
      doc.v = i % 2 === 0 ? null : { nested: i };
      break;
    default:
      break;
  }
  return doc;
});

const FEW_NUMBERS: JsonObject[] = Array.from({ length: COUNT }, (_, i) => ({
  id: `f${i}`,
  w: i % 2000 === 7 ? [i % 3, `n${i}`] : `x${(i * 31) % 400}`,
}));

describe('ordering by one value path by walking its index (SQLite; PostgreSQL in the differential e2e)', () => {
  let db: Database.Database;

  beforeAll(async () => {
    db = createDatabase();
    await insertAll(new SqliteRecordStore(db), 'walk', DOCS);
    await insertAll(new SqliteRecordStore(db), 'few-numbers', FEW_NUMBERS);
  });
  afterAll(() => db.close());

  const expected = (query: Clause, docs = DOCS): string[] => {
    const parsed = parseRecordQuery(query, { allowSelect: false });
    const evaluator = parsed.where ? new QueryEvaluator(parsed.where) : undefined;
    const order = new MemoryOrder(parsed.order);
    const ranked = docs
      .map((doc, seq) => ({ doc, rank: order.rank(seq, doc.id as string, doc) }))
      .filter((entry) => !evaluator || evaluator.matches(entry.doc))
      .sort((a, b) => order.compare(a.rank, b.rank));
    return ranked.slice(parsed.offset, parsed.offset + (parsed.count ?? COUNT)).map((entry) => entry.doc.id as string);
  };

  /** The plan's answer, and whether it sorted candidates with ORDER BY (what the walk replaces). */
  const read = (query: Clause, family = 'walk'): { ids: string[]; sorted: boolean } => {
    const parsed = parseRecordQuery(query, { allowSelect: false });
    const queries = statementsOn(db);
    const plan = selectionPlan(new RecordSelection({ family, valueIndex: ValueIndex.EVERY_PATH, ...parsed }, sqliteDialect), 'read');
    const ids = [...readSelectionNow(plan, queries)].flat().map((row) => row.id);
    return { ids, sorted: queries.run.some((statement) => statement.sql.includes('ORDER BY (SELECT')) };
  };

  const WHERES: (Clause | undefined)[] = [undefined, op('gte', 'i', 300), { not: op('equals', 'group', 4) }];
  const WINDOWS: Clause[] = [
    { from: 0, to: 9 },
    { from: 0, to: 0 },
    { from: 37, to: 136 },
    { from: 900, to: 999 },
  ];

  it.each(['desc', 'asc'])('answers %s as the in-memory order does, without sorting every candidate', (mode) => {
    for (const where of WHERES) {
      for (const limit of WINDOWS) {
        const query: Clause = { order: [{ target: 'v', mode }], limit, ...(where && { where }) };
        const answer = read(query);
        expect({ query, ids: answer.ids }).toEqual({ query, ids: expected(query) });
        expect({ query, sorted: answer.sorted }).toEqual({ query, sorted: false });
      }
    }
  });

  it('a read of one id ordered by a value path answers that record alone', () => {
    const parsed = parseRecordQuery({ order: [{ target: 'v', mode: 'desc' }], limit: { from: 0, to: 9 } }, { allowSelect: false });
    const selection = new RecordSelection({ family: 'walk', valueIndex: ValueIndex.EVERY_PATH, id: 'r17', ...parsed }, sqliteDialect);
    // Before: the walk took every record of the family for a candidate, and answered ten others.
    expect([...readSelectionNow(selectionPlan(selection, 'read'), statementsOn(db))].flat().map((row) => row.id)).toEqual(['r17']);
  });

  it('falls back to sorting when the window reaches records without a value, and stays exact', () => {
    for (const mode of ['asc', 'desc']) {
      // 3/8 of the records hold null, an object or nothing at `v`: they come last.
      const query: Clause = { order: [{ target: 'v', mode }], limit: { from: 7_000, to: 7_009 } };
      const answer = read(query);
      expect(answer.ids).toEqual(expected(query));
      expect(answer.sorted).toBe(true);
    }
  });

  it('ranks texts after the numbers have run out, still without sorting', () => {
    // Six records hold a number; a window of ten reaches the texts (ties among them too).
    for (const mode of ['asc', 'desc']) {
      const query: Clause = { order: [{ target: 'w', mode }], limit: { from: 0, to: 9 } };
      const answer = read(query, 'few-numbers');
      expect({ mode, ids: answer.ids }).toEqual({ mode, ids: expected(query, FEW_NUMBERS) });
      expect(answer.sorted).toBe(false);
    }
  });
});
