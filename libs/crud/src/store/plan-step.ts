import type { JsonObject } from '../core/query/query.types';
import type { StoredRow } from './record-selection';
import type { SqlFragment } from './sql-dialect';

/**
 * One step of reading a selection: a query to run (its answer is passed back), a page of the
 * result, or a point where a long read may let other work in. Written once as a generator, the
 * plan is driven asynchronously by reads and deletes, and synchronously inside a SQLite
 * delete's transaction, which must not yield.
 */
export type PlanStep =
  | { kind: 'rows'; sql: SqlFragment }
  | { kind: 'seqs'; sql: SqlFragment }
  | { kind: 'texts'; sql: SqlFragment }
  | { kind: 'seqAtOffset'; family: string; offset: number; sql: SqlFragment }
  | { kind: 'page'; rows: StoredRow[] }
  | { kind: 'pause' }
  | { kind: 'filter'; where: string; rows: StoredRow[]; textsAt?: string };

/** Rows, sequence numbers, texts, or per row whether it passes a filter (`filter` steps). */
export type PlanAnswer = StoredRow[] | number[] | string[] | boolean[] | undefined;
export type PlanPart<T> = Generator<PlanStep, T, PlanAnswer>;

export const PAUSE: PlanStep = { kind: 'pause' };

export function* rows(sql: SqlFragment): PlanPart<StoredRow[]> {
  return (yield { kind: 'rows', sql }) as StoredRow[];
}

export function* seqs(sql: SqlFragment): PlanPart<number[]> {
  return (yield { kind: 'seqs', sql }) as number[];
}

/**
 * The sequence number of the record `offset` places into a family's arrival order (`sql` asks
 * for it), which a store may answer from what it knows of that order (`ArrivalMarkers`).
 */
export function* seqAtOffset(family: string, offset: number, sql: SqlFragment): PlanPart<number | undefined> {
  const [seq] = (yield { kind: 'seqAtOffset', family, offset, sql }) as number[];
  return seq;
}

/** The first column of each row, a text: one string a row, not an object (95k rows: 86 → 19 ms on SQLite). */
export function* texts(sql: SqlFragment): PlanPart<string[]> {
  return (yield { kind: 'texts', sql }) as string[];
}

/**
 * Which of `rows` pass the where clause `where` (its JSON text), decided off the event loop's
 * thread: for clauses whose regular expressions can take long to match (see ResidualPool).
 */
export function* filtered(where: string, rows: StoredRow[]): PlanPart<boolean[]> {
  if (rows.length === 0) return [];
  return (yield { kind: 'filter', where, rows }) as boolean[];
}

/**
 * Which of `texts` pass `where` (its JSON text), each evaluated as the record `{ [key]: text }`,
 * off the event loop's thread as `filtered` does: texts travel as they are, not as JSON.
 */
export function* filteredTexts(where: string, key: string, texts: string[]): PlanPart<boolean[]> {
  if (texts.length === 0) return [];
  return (yield { kind: 'filter', where, rows: texts.map((doc) => ({ seq: 0, id: '', doc })), textsAt: key }) as boolean[];
}

/** A filter's document as the evaluator takes it: parsed, or a plain text under `textsAt`. */
export function asRecord(doc: string, textsAt: string | undefined): JsonObject {
  return textsAt === undefined ? (JSON.parse(doc) as JsonObject) : { [textsAt]: doc };
}

/** Runs in-memory work that pauses when its slice is spent, turning each pause into a plan step. */
export function* pausing<T>(work: Generator<void, T, void>): PlanPart<T> {
  for (let step = work.next(); ; step = work.next()) {
    if (step.done) return step.value;
    yield PAUSE;
  }
}
