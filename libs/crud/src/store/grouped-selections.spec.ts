import { QueryAbortedError, QueryBudget, QueryTimeoutError, StatementStop } from '../core/query/query-budget';
import {
  GROUPED_SELECTION_MAX,
  GroupedSelections,
  GroupRow,
  POSTGRES_MAX_PARAMETERS,
  SelectionStatements,
  SLOW_STATEMENT_MS,
  SLOW_TEXT_APART_MS,
} from './grouped-selections';
import { StoredRow } from './record-selection';
import { SqlFragment } from './sql-dialect';

const TEXT = 'SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.family = ? AND r.id >= ? ORDER BY r.seq DESC LIMIT ?';

/** A read of the records whose id is at least `from`, newest first, at most `limit`. */
function read(from: string, limit = 10, sql = TEXT): SqlFragment {
  return { sql, params: ['event', from, limit], shareable: true };
}

/** The statement `size` reads of `text` share: each branch tagged with its position `g`. */
function sharedOf(text: string, size: number): string {
  return Array.from({ length: size }, (_, g) => `(${text.replace('SELECT ', `SELECT ${g} AS g, `)})`).join(' UNION ALL ');
}

const RECORDS: StoredRow[] = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ seq: i + 1, id, doc: `{"id":"${id}"}` }));

function answer([, from, limit]: unknown[]): StoredRow[] {
  return RECORDS.filter((row) => row.id >= (from as string))
    .reverse()
    .slice(0, limit as number);
}

interface Sent {
  sql: string;
  params: unknown[];
  stop?: StatementStop;
  finish: () => void;
  fail: (error: unknown) => void;
}

/**
 * Statements that answer only when the test says so (`finish`), as a database would: a shared
 * statement answers each branch's parameters (three per read) with its rows, tagged by branch.
 */
function database() {
  const sent: Sent[] = [];
  const statements: SelectionStatements = {
    alone: (fragment) =>
      new Promise<StoredRow[]>((resolve, reject) => {
        sent.push({ sql: fragment.sql, params: fragment.params, finish: () => resolve(answer(fragment.params)), fail: reject });
      }),
    together: (sql, params, stop) =>
      new Promise<GroupRow[]>((resolve, reject) => {
        const finish = () => {
          const rows: GroupRow[] = [];
          for (let g = 0; g * 3 < params.length; g++) rows.push(...answer(params.slice(g * 3, g * 3 + 3)).map((row) => ({ ...row, g })));
          resolve(rows);
        };
        sent.push({ sql, params, stop, finish, fail: reject });
      }),
  };
  return { sent, statements };
}

/** Lets the promises settled so far run their callbacks. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

function abortable() {
  const listeners = new Set<() => void>();
  const signal = {
    aborted: false,
    addEventListener: (_: 'abort', listener: () => void) => listeners.add(listener),
    removeEventListener: (_: 'abort', listener: () => void) => listeners.delete(listener),
  };
  return {
    signal,
    listeners,
    abort: () => {
      signal.aborted = true;
      for (const listener of [...listeners]) listener();
    },
  };
}

describe('GroupedSelections', () => {
  it('sends a read at once, alone, when no statement of its text is in flight', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    const found = reads.rows(read('d'), undefined);
    expect(sent).toHaveLength(1);
    expect(sent[0].sql).toBe(TEXT);
    sent[0].finish();
    expect(await found).toEqual([RECORDS[4], RECORDS[3]]);
  });

  it('sends the reads that waited on a statement of their text as one statement, and answers each with its own rows in its order', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    const first = reads.rows(read('e'), undefined);
    const waiting = [reads.rows(read('a', 2), undefined), reads.rows(read('c'), undefined), reads.rows(read('z'), undefined)];
    expect(sent).toHaveLength(1);
    sent[0].finish();
    await first;
    expect(sent).toHaveLength(2);
    expect(sent[1].sql).toBe(sharedOf(TEXT, 3));
    expect(sent[1].params).toEqual(['event', 'a', 2, 'event', 'c', 10, 'event', 'z', 10]);
    sent[1].finish();
    expect(await Promise.all(waiting)).toEqual([[RECORDS[4], RECORDS[3]], [RECORDS[4], RECORDS[3], RECORDS[2]], []]);
  });

  it("splits the waiting reads into statements of at most GROUPED_SELECTION_MAX branches and within PostgreSQL's parameter limit", async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('a'), undefined);
    // Limits of their own: reads with equal parameters would share a branch.
    for (let i = 0; i < GROUPED_SELECTION_MAX + 2; i++) void reads.rows(read('b', 10 + i), undefined);
    sent[0].finish();
    await settled();
    expect(sent.slice(1).map((statement) => statement.params.length / 3)).toEqual([GROUPED_SELECTION_MAX, 2]);

    const wide = 'SELECT r.seq, r.id, r.doc FROM inventory_record r WHERE r.seq IN (?) LIMIT ?';
    const params = Array.from({ length: POSTGRES_MAX_PARAMETERS / 3 + 1 }, (_, i) => i);
    void reads.rows({ sql: wide, params, shareable: true }, undefined);
    for (let i = 0; i < 3; i++) void reads.rows({ sql: wide, params: [...params.slice(0, -1), i], shareable: true }, undefined);
    sent[3].finish();
    await settled();
    expect(sent.slice(4).map((statement) => statement.params.length / params.length)).toEqual([2, 1]);
  });

  it('counts reads that share a branch once: a statement of one query takes every read waiting for it', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('a'), undefined);
    const same = Array.from({ length: 2 * GROUPED_SELECTION_MAX }, () => reads.rows(read('c'), undefined));
    expect(sent).toHaveLength(1);
    sent[0].finish();
    await settled();
    expect(sent).toHaveLength(2);
    expect(sent[1].params).toEqual(['event', 'c', 10]);
    sent[1].finish();
    for (const rows of await Promise.all(same)) expect(rows).toEqual(RECORDS.slice(2).reverse());
  });

  it('sends the waiting reads as soon as they need GROUPED_SELECTION_MAX branches, with the repeats of those branches, without the statement in flight', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('a'), undefined);
    const full: Promise<StoredRow[]>[] = [];
    for (let i = 0; i < GROUPED_SELECTION_MAX; i++) {
      full.push(reads.rows(read('d', 10 + i), undefined));
      if (i < GROUPED_SELECTION_MAX - 1) full.push(reads.rows(read('d', 10 + i), undefined));
    }
    expect(sent).toHaveLength(2);
    expect(sent[1].params.length / 3).toBe(GROUPED_SELECTION_MAX);
    // A repeat arriving once its branch's statement was sent waits for the next.
    const late = reads.rows(read('d', 10), undefined);
    expect(sent).toHaveLength(2);
    sent[1].finish();
    expect(await Promise.all(full)).toEqual(full.map(() => [RECORDS[4], RECORDS[3]]));
    await settled();
    expect(sent[2].params).toEqual(['event', 'd', 10]);
    sent[2].finish();
    expect(await late).toEqual([RECORDS[4], RECORDS[3]]);
  });

  it('counts branches again when a waiting read stops: a repeat leaves its branch, the last read of one takes it away', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    const [repeat, alone] = [abortable(), abortable()];
    void reads.rows(read('a'), undefined);
    for (let i = 0; i < GROUPED_SELECTION_MAX - 2; i++) void reads.rows(read('b', 10 + i), undefined);
    void reads.rows(read('b', 10), new QueryBudget(10_000, repeat.signal)).catch(() => undefined);
    void reads.rows(read('c'), new QueryBudget(10_000, alone.signal)).catch(() => undefined);
    expect(sent).toHaveLength(1);
    repeat.abort();
    alone.abort();
    // Four branches wait: a fifth does not fill the statement, a sixth does.
    void reads.rows(read('d'), undefined);
    expect(sent).toHaveLength(1);
    void reads.rows(read('e'), undefined);
    expect(sent).toHaveLength(2);
    expect(sent[1].params.length / 3).toBe(GROUPED_SELECTION_MAX);
  });

  it('never shares a statement between two texts', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    const other = TEXT.replace('DESC', 'ASC');
    void reads.rows(read('a'), undefined);
    void reads.rows(read('a', 10, other), undefined);
    expect(sent.map((statement) => statement.sql)).toEqual([TEXT, other]);
  });

  it('sends a lone waiting read as a statement of its own text', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('a'), undefined);
    const second = reads.rows(read('d'), undefined);
    sent[0].finish();
    await settled();
    expect(sent[1].sql).toBe(TEXT);
    sent[1].finish();
    expect(await second).toEqual([RECORDS[4], RECORDS[3]]);
  });

  it('gives every group of one size the same statement, and keeps it right for texts past what it remembers', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    // A read in flight and `waiting` reads waiting on it, which then go as one statement.
    const groupAfter = async (text: string, waiting: number) => {
      void reads.rows(read('a', 10, text), undefined);
      const group = Array.from({ length: waiting }, (_, i) => reads.rows(read('b', 10 + i, text), undefined));
      sent.at(-1)!.finish();
      await settled();
      sent.at(-1)!.finish();
      await Promise.all(group);
      return sent.at(-1)!.sql;
    };
    const shared = [await groupAfter(TEXT, 3), await groupAfter(TEXT, 2), await groupAfter(TEXT, 3), await groupAfter(TEXT, 2)];
    expect(shared).toEqual([sharedOf(TEXT, 3), sharedOf(TEXT, 2), sharedOf(TEXT, 3), sharedOf(TEXT, 2)]);
    // A text whose statements alone pass the 2M characters remembered pushes the others out.
    const long = `${TEXT} /* ${'x'.repeat(1_000_000)} */`;
    expect(await groupAfter(long, 3)).toBe(sharedOf(long, 3));
    expect(await groupAfter(long, 3)).toBe(sharedOf(long, 3));
    expect(await groupAfter(TEXT, 3)).toBe(sharedOf(TEXT, 3));
  });

  it('fails every read of a shared statement that fails', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('a'), undefined);
    const waiting = [reads.rows(read('b'), undefined), reads.rows(read('c'), undefined)];
    sent[0].finish();
    await settled();
    sent[1].fail(new Error('connection lost'));
    for (const outcome of waiting) await expect(outcome).rejects.toThrow('connection lost');
  });

  it('fails a waiting read whose client went away with its own error, and leaves it out of the statement', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    const client = abortable();
    void reads.rows(read('a'), undefined);
    const gone = reads.rows(read('b'), new QueryBudget(10_000, client.signal));
    const kept = [reads.rows(read('c'), new QueryBudget(10_000)), reads.rows(read('d'), undefined)];
    client.abort();
    await expect(gone).rejects.toBeInstanceOf(QueryAbortedError);
    expect(client.listeners.size).toBe(0);
    sent[0].finish();
    await settled();
    expect(sent[1].params).toEqual(['event', 'c', 10, 'event', 'd', 10]);
    sent[1].finish();
    expect((await Promise.all(kept)).map((rows) => rows.length)).toEqual([3, 2]);
  });

  it.each([
    ['in branches of their own', 'c', ['event', 'b', 10, 'event', 'c', 10]],
    ['sharing one branch', 'b', ['event', 'b', 10]],
  ])(
    'fails a read whose budget ran out while its shared statement ran, and cancels the statement only once every read in it stopped (reads %s)',
    async (_, secondFrom, params) => {
      const { sent, statements } = database();
      const reads = new GroupedSelections(statements);
      const [first, second] = [abortable(), abortable()];
      void reads.rows(read('a'), undefined);
      // The read whose parameters a shared branch was sent with stops first: the statement still runs for the other.
      const waiting = [
        reads.rows(read('b'), new QueryBudget(50, first.signal)),
        reads.rows(read(secondFrom), new QueryBudget(10_000, second.signal)),
      ];
      sent[0].finish();
      await settled();
      expect(sent[1].params).toEqual(params);
      const cancelled = jest.fn();
      sent[1].stop!.onStop(cancelled);
      await expect(waiting[0]).rejects.toBeInstanceOf(QueryTimeoutError);
      expect(cancelled).not.toHaveBeenCalled();
      second.abort();
      await expect(waiting[1]).rejects.toBeInstanceOf(QueryAbortedError);
      expect(cancelled).toHaveBeenCalledTimes(1);
      expect(first.listeners.size).toBe(0);
    },
  );

  it('gives reads with equal parameters, waiting together, one branch of the statement, and each read its own rows', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('e'), undefined);
    const waiting = [read('c'), read('a', 2), read('c'), read('c')].map((fragment) => reads.rows(fragment, undefined));
    sent[0].finish();
    await settled();
    expect(sent[1].sql).toBe(sharedOf(TEXT, 2));
    expect(sent[1].params).toEqual(['event', 'c', 10, 'event', 'a', 2]);
    sent[1].finish();
    const answers = await Promise.all(waiting);
    expect(answers).toEqual([RECORDS.slice(2).reverse(), [RECORDS[4], RECORDS[3]], RECORDS.slice(2).reverse(), RECORDS.slice(2).reverse()]);
    // Nothing shared between the answers: a read may reorder or change its own rows.
    answers[0].pop();
    answers[0][0].doc = 'changed';
    expect(answers[2]).toEqual(RECORDS.slice(2).reverse());
  });

  it('shares no branch between reads whose parameters JSON does not tell apart exactly', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    const at = (value: unknown): SqlFragment => ({ sql: TEXT, params: ['event', value, 10], shareable: true });
    void reads.rows(read('a'), undefined);
    // NaN and null both print as null; two equal dates are two objects of a kind JSON flattens.
    for (const value of [Number.NaN, null, new Date(0), new Date(0), ['x', 1], ['x', 1]]) void reads.rows(at(value), undefined);
    sent[0].finish();
    await settled();
    expect(sent[1].params).toEqual([
      'event',
      Number.NaN,
      10,
      'event',
      null,
      10,
      'event',
      new Date(0),
      10,
      'event',
      new Date(0),
      10,
      'event',
      ['x', 1],
      10,
    ]);
  });

  it('sends the waiting reads without the statement in flight once they have waited the slow limit', async () => {
    const { sent, statements } = database();
    const reads = new GroupedSelections(statements);
    void reads.rows(read('a'), undefined);
    const waiting = [reads.rows(read('b'), undefined), reads.rows(read('c'), undefined)];
    await new Promise((resolve) => setTimeout(resolve, SLOW_STATEMENT_MS / 2));
    expect(sent).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, SLOW_STATEMENT_MS));
    expect(sent).toHaveLength(2);
    sent[1].finish();
    expect((await Promise.all(waiting)).map((rows) => rows.length)).toEqual([4, 3]);
  });

  it('keeps the reads of a text apart while its statements are slow, and shares them again after', async () => {
    const { sent, statements } = database();
    let now = 0;
    const reads = new GroupedSelections(statements, () => now);
    const slow = reads.rows(read('a'), undefined);
    now += SLOW_STATEMENT_MS + 1;
    sent[0].finish();
    await slow;
    void reads.rows(read('b'), undefined);
    void reads.rows(read('c'), undefined);
    expect(sent.slice(1).map((statement) => statement.sql)).toEqual([TEXT, TEXT]);
    now += SLOW_TEXT_APART_MS;
    void reads.rows(read('d'), undefined);
    void reads.rows(read('e'), undefined);
    expect(sent).toHaveLength(4);
  });
});
