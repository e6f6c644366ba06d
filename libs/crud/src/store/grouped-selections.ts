import { QueryBudget, StatementStop } from '../core/query/query-budget';
import { StoredRow } from './record-selection';
import { SqlFragment } from './sql-dialect';

/** A row of a shared statement, tagged with the position (`g`) in its group of the read it answers. */
export type GroupRow = StoredRow & { g: number };

export interface SelectionStatements {
  /** One read's statement, on a connection of its own, cancelled when its budget stops. */
  alone(fragment: SqlFragment, budget: QueryBudget | undefined): Promise<StoredRow[]>;
  /** The statement of several reads (`?` placeholders, parameters in order), cancelled when `stop` fires. */
  together(sql: string, params: unknown[], stop: StatementStop): Promise<GroupRow[]>;
}

/**
 * A statement has at most this many branches, and reads waiting go as soon as they need this
 * many, without the statement in flight: with ten clients, two statements then overlap and the
 * service's core does not idle while one runs (see `GroupedSelections`). Reads with equal
 * parameters share a branch and count once: they add no work to the statement.
 */
export const GROUPED_SELECTION_MAX = 6;
/** PostgreSQL's limit on a statement's parameters: reads whose parameters would pass it go in the next. */
export const POSTGRES_MAX_PARAMETERS = 65_535;

/**
 * A statement of a text that took longer than this (alone or shared) keeps that text's reads
 * apart for `SLOW_TEXT_APART_MS`; and reads waiting on a statement in flight leave without it
 * once they have waited this long. A statement's time is taken in the service, so a busy event
 * loop adds to it: at 20 ms, W3 on PostgreSQL kept its text apart 27 times in 20 s; at 50 ms,
 * never.
 */
export const SLOW_STATEMENT_MS = 50;
export const SLOW_TEXT_APART_MS = 10_000;

/** Texts kept apart are remembered up to this many (the oldest forgotten first). */
const MAX_TEXTS_KEPT_APART = 1000;
/**
 * Shared statements are remembered up to this many characters in all, the oldest text's
 * forgotten first: a query within the caps can have thousands of placeholders, and a text's
 * statements repeat it 2 + 3 + … + `GROUPED_SELECTION_MAX` times.
 */
const MAX_SHARED_TEXT_CHARS = 2_000_000;

interface Waiting {
  fragment: SqlFragment;
  /** Equal for reads with equal parameters (`parametersKey`), which share a branch; undefined: a branch of its own. */
  key: string | undefined;
  budget: QueryBudget | undefined;
  resolve: (rows: StoredRow[]) => void;
  reject: (error: unknown) => void;
  /** Set once the read has its answer or its error. */
  settled: boolean;
  /** Undoes the watch on the read's budget. */
  unwatch: () => void;
  /** The shared statement the read is in, once sent. */
  statement?: SharedStatement;
}

interface SharedStatement {
  reads: Waiting[];
  /** Cancels the statement (set once it runs). */
  cancel?: () => void;
}

interface TextState {
  /** Statements of the text not finished yet. */
  inFlight: number;
  waiting: WaitingReads;
  /** Set while reads wait: sends them without the statement in flight once they waited `SLOW_STATEMENT_MS`. */
  timer?: NodeJS.Timeout;
}

/**
 * Filtered reads of one SQL text that arrive while a statement of that text is in flight wait
 * for it, and then go to PostgreSQL together, as one statement: the text once per read,
 * parenthesized, joined by `UNION ALL`, each with its own parameters and its position in the
 * group as a first column (`g`); reads with equal parameters share one branch (`WaitingReads`).
 * A read with no statement of its text in flight goes at once,
 * alone; waiting reads go without waiting further once they need `GROUPED_SELECTION_MAX` branches.
 *
 * On PostgreSQL each statement costs the service a write that wakes a backend on another core,
 * the socket stream's and pg's work, and their garbage, and W3 saturates the service's core.
 * W3 with ten clients, alternated twice (2026-11-27, a 2-core Xeon VM): every read alone,
 * 3.0–3.2k req/s (0.76–0.80 of the raw bound); groups sent when the statement in flight ends,
 * up to 16 reads, 3.2–3.6k (0.79–0.86), but the service's core idled 4–9 % while a group's
 * clients all waited for it; groups also sent once 6 reads wait, 3.3–3.8k (0.86–0.96), the core
 * 99–100 % busy. W3U: 0.82–1.04, 0.94–1.12, 0.99–1.11. Sent at 3, 4 or 5 reads they did no
 * better than at 6 in the same runs (3.1–3.5k against 3.2–3.5k). Clients polling one query
 * (2026-12-05, a 2-core EPYC VM, `npm run bench -- --w3-one-query`, PostgreSQL): with reads
 * counted in branches, all of a query's waiting reads go in the next statement, 0.28 statements
 * a read against 0.35 counted in reads (six at a time); W3 1.03, 1.07, 0.64 of the raw bound
 * against 0.99, 0.93, 1.03 in runs alternated three times (the 0.64 in windows where a request
 * cost both servers up to 1.7× their usual CPU).
 *
 * A statement runs its reads one after the other in one backend, so one slow read would hold up
 * the cheap ones sharing it. Two bounds: reads waiting on a statement in flight go without it
 * once they have waited `SLOW_STATEMENT_MS`, and a text whose statement took longer than that runs its
 * reads alone for the next `SLOW_TEXT_APART_MS`. Each read keeps its own budget: when it stops,
 * the read fails with its own error at once, whether it waits or its statement runs, and a shared
 * statement is cancelled once every read in it has stopped.
 *
 * Within one statement PostgreSQL's `Append` returns each branch's rows in turn, in the order
 * the branch's own `ORDER BY` gives them.
 */
export class GroupedSelections {
  private readonly texts = new Map<string, TextState>();
  /** Texts whose reads run alone, until the time each maps to. */
  private readonly apart = new Map<string, number>();
  /**
   * Each text's shared statements, by group size, built once: the same string each time also
   * lets the store find what it derived from it without reading it through again.
   */
  private readonly sharedTexts = new Map<string, string[]>();
  private sharedTextChars = 0;

  constructor(
    private readonly statements: SelectionStatements,
    private readonly now: () => number = () => performance.now(),
  ) {}

  rows(fragment: SqlFragment, budget: QueryBudget | undefined): Promise<StoredRow[]> {
    const text = fragment.sql;
    if (this.keptApart(text)) return this.timed(text, () => this.statements.alone(fragment, budget));
    const state = this.texts.get(text);
    if (!state) {
      this.texts.set(text, { inFlight: 1, waiting: new WaitingReads() });
      return this.timed(text, () => this.statements.alone(fragment, budget)).finally(() => this.finished(text));
    }
    return new Promise((resolve, reject) => {
      const key = parametersKey(fragment.params);
      const read: Waiting = { fragment, key, budget, resolve, reject, settled: false, unwatch: () => undefined };
      read.unwatch = budget?.onStop(() => this.stopped(text, read)) ?? read.unwatch;
      if (read.settled) return;
      state.waiting.add(read);
      if (state.waiting.branches >= GROUPED_SELECTION_MAX) this.sendWaiting(text);
      else state.timer ??= setTimeout(() => this.sendWaiting(text), SLOW_STATEMENT_MS);
    });
  }

  private sharedText(text: string, size: number): string {
    const known = this.sharedTexts.get(text)?.[size];
    if (known !== undefined) return known;
    const sql = sharedStatement(text, size);
    const bySize = this.sharedTexts.get(text) ?? [];
    bySize[size] = sql;
    this.sharedTexts.set(text, bySize);
    this.sharedTextChars += sql.length;
    while (this.sharedTextChars > MAX_SHARED_TEXT_CHARS) {
      const [oldest, statements] = this.sharedTexts.entries().next().value!;
      this.sharedTexts.delete(oldest);
      for (const statement of statements) this.sharedTextChars -= statement?.length ?? 0;
    }
    return sql;
  }

  private keptApart(text: string): boolean {
    const until = this.apart.get(text);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.apart.delete(text);
    return false;
  }

  private async timed<T>(text: string, statement: () => Promise<T>): Promise<T> {
    const started = this.now();
    try {
      return await statement();
    } finally {
      if (this.now() - started > SLOW_STATEMENT_MS) this.keepApart(text);
    }
  }

  private keepApart(text: string): void {
    this.apart.delete(text);
    if (this.apart.size >= MAX_TEXTS_KEPT_APART) this.apart.delete(this.apart.keys().next().value!);
    this.apart.set(text, this.now() + SLOW_TEXT_APART_MS);
  }

  /** A read whose budget stopped: it fails with the budget's error; if it still waited, it is not sent. */
  private stopped(text: string, read: Waiting): void {
    const state = this.texts.get(text);
    state?.waiting.remove(read);
    settle(read, () => {
      read.budget!.check();
      read.reject(new Error('the read stopped'));
    });
    const statement = read.statement;
    if (statement?.reads.every((other) => other.settled)) statement.cancel?.();
  }

  private finished(text: string): void {
    const state = this.texts.get(text);
    if (!state) return;
    state.inFlight--;
    if (state.waiting.length > 0) this.sendWaiting(text);
    else if (state.inFlight === 0) this.texts.delete(text);
  }

  private sendWaiting(text: string): void {
    const state = this.texts.get(text);
    if (!state) return;
    clearTimeout(state.timer);
    state.timer = undefined;
    while (state.waiting.length > 0) {
      const branches = state.waiting.takeGroup();
      state.inFlight++;
      void this.send(text, branches).finally(() => this.finished(text));
    }
  }

  /** Sends one statement's branches, each the reads that share it, its first read's parameters sent. */
  private async send(text: string, branches: Waiting[][]): Promise<void> {
    const group = branches.flat();
    if (group.length === 1) {
      const [read] = group;
      read.unwatch();
      try {
        const rows = await this.timed(text, () => this.statements.alone(read.fragment, read.budget));
        settle(read, () => read.resolve(rows));
      } catch (error) {
        settle(read, () => read.reject(error));
      }
      return;
    }
    const sql = this.sharedText(text, branches.length);
    const params: unknown[] = [];
    for (const [first] of branches) params.push(...first.fragment.params);
    const statement: SharedStatement = { reads: group };
    for (const read of group) read.statement = statement;
    let rows: GroupRow[];
    try {
      rows = await this.timed(text, () => this.statements.together(sql, params, whenEveryReadStopped(statement)));
    } catch (error) {
      for (const read of group) settle(read, () => read.reject(error));
      return;
    }
    const rowsOfBranch: GroupRow[][] = branches.map(() => []);
    for (const row of rows) rowsOfBranch[row.g].push(row);
    branches.forEach((reads, g) => {
      // Rows of its own for each read, as a read alone gets: what one caller does with them reaches no other.
      for (const read of reads) settle(read, () => read.resolve(rowsOfBranch[g].map(({ seq, id, doc }) => ({ seq, id, doc }))));
    });
  }
}

/** A key equal for equal parameters, where JSON tells them apart exactly; undefined for any other kind (never shared). */
export function parametersKey(params: readonly unknown[]): string | undefined {
  return params.every(exactInJson) ? JSON.stringify(params) : undefined;
}

function exactInJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return Array.isArray(value) && value.every(exactInJson);
}

/** `size` reads of `text` as one statement: each parenthesized, tagged with its position `g`, joined by `UNION ALL`. */
function sharedStatement(text: string, size: number): string {
  return Array.from({ length: size }, (_read, g) => `(${text.replace(/^SELECT /, `SELECT ${g} AS g, `)})`).join(' UNION ALL ');
}

/**
 * The reads of one text waiting for their statement, in arrival order, and how many branches
 * they would need. A read whose parameters equal an earlier read's of the statement shares that
 * read's branch: same text, same parameters, one statement and so one snapshot, the same rows,
 * which PostgreSQL then finds once and the service parses once. Every read was waiting when the
 * statement was sent, so each still sees every write that finished before it arrived. Clients
 * polling one query (a dashboard's, a benchmark's) send groups of one text and one set of
 * parameters.
 */
class WaitingReads {
  private reads: Waiting[] = [];
  private readonly keys = new Set<string>();
  /** Reads whose parameters never share a branch (`parametersKey` undefined). */
  private unkeyed = 0;

  get length(): number {
    return this.reads.length;
  }

  get branches(): number {
    return this.keys.size + this.unkeyed;
  }

  add(read: Waiting): void {
    this.reads.push(read);
    this.count(read);
  }

  remove(read: Waiting): void {
    this.reads = this.reads.filter((other) => other !== read);
    this.recount();
  }

  /**
   * The first reads, as many as one statement takes, as its branches (each the reads that share
   * it, in arrival order): at most `GROUPED_SELECTION_MAX` branches within PostgreSQL's parameter
   * limit, and at least one read. Reads that share a branch add neither, so a statement takes
   * every waiting read of one query.
   */
  takeGroup(): Waiting[][] {
    const branchByKey = new Map<string, Waiting[]>();
    const branches: Waiting[][] = [];
    let params = 0;
    let taken = 0;
    for (const read of this.reads) {
      const shared = read.key === undefined ? undefined : branchByKey.get(read.key);
      if (shared) {
        shared.push(read);
      } else {
        if (branches.length === GROUPED_SELECTION_MAX) break;
        params += read.fragment.params.length;
        if (branches.length > 0 && params > POSTGRES_MAX_PARAMETERS) break;
        const branch = [read];
        if (read.key !== undefined) branchByKey.set(read.key, branch);
        branches.push(branch);
      }
      taken++;
    }
    this.reads.splice(0, taken);
    this.recount();
    return branches;
  }

  private count({ key }: Waiting): void {
    if (key === undefined) this.unkeyed++;
    else this.keys.add(key);
  }

  private recount(): void {
    this.keys.clear();
    this.unkeyed = 0;
    for (const read of this.reads) this.count(read);
  }
}

/** Gives a read its outcome, once; an outcome that throws rejects it with what it threw. */
function settle(read: Waiting, outcome: () => void): void {
  if (read.settled) return;
  read.settled = true;
  read.unwatch();
  try {
    outcome();
  } catch (error) {
    read.reject(error);
  }
}

/**
 * Stops a shared statement once no read of its group still waits for it. The reads' own budgets
 * already watch them (`GroupedSelections.stopped`), so this adds no timer.
 */
function whenEveryReadStopped(statement: SharedStatement): StatementStop {
  return {
    onStop(stop) {
      statement.cancel = stop;
      if (statement.reads.every((read) => read.settled)) stop();
      return () => {
        statement.cancel = undefined;
      };
    },
    check() {
      throw new Error('every read of the statement stopped');
    },
  };
}
