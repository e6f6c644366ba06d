import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { QueryBudget } from '../core/query/query-budget';
import { asRecord, PlanAnswer } from './plan-step';
import { ResidualPool } from './residual-pool';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { Condition } from '../core/query/query.types';
import { StoredRow } from './record-selection';
import { SelectionPlan } from './selection-plan';
import { SqlFragment } from './where-compiler';

/** How a store runs the selection's SQL; SQLite answers synchronously, pg asynchronously. */
export interface SelectionQueries {
  rows(fragment: SqlFragment): StoredRow[] | Promise<StoredRow[]>;
  seqs(fragment: SqlFragment): number[] | Promise<number[]>;
  texts(fragment: SqlFragment): string[] | Promise<string[]>;
  /** The record `offset` places into a family's arrival order, when the store knows better than counting (`seqAtOffset`). */
  seqAtOffset?(family: string, offset: number): number | undefined | Promise<number | undefined>;
  /** Runs at each pause, to let other requests in; by default one turn of the event loop. */
  betweenPages?: () => Promise<unknown>;
}

/** Filters decided in worker threads by default; tests may decide them otherwise. */
export type RowFilter = (where: string, docs: string[], budget?: QueryBudget, textsAt?: string) => Promise<boolean[]>;
const inWorkers: RowFilter = (where, docs, budget, textsAt) => ResidualPool.shared.evaluate(where, docs, budget, textsAt);

/**
 * Runs a plan's queries as it asks for them, and yields its pages. At every pause it lets the
 * event loop turn (so the in-memory part of a long query never holds it for more than a slice),
 * and before every statement and after every pause it checks the budget: past its time or with
 * its client gone, the read stops with the budget's error.
 */
export async function* readSelection(
  plan: SelectionPlan,
  queries: SelectionQueries,
  budget?: QueryBudget,
  filter: RowFilter = inWorkers,
): AsyncIterable<StoredRow[]> {
  const pause = queries.betweenPages ?? (() => yieldToEventLoop());
  let answer: PlanAnswer;
  for (let step = plan.next(); !step.done; step = plan.next(answer)) {
    answer = undefined;
    const current = step.value;
    switch (current.kind) {
      case 'rows':
        budget?.check();
        answer = await queries.rows(current.sql);
        break;
      case 'seqs':
        budget?.check();
        answer = await queries.seqs(current.sql);
        break;
      case 'texts':
        budget?.check();
        answer = await queries.texts(current.sql);
        break;
      case 'seqAtOffset': {
        budget?.check();
        if (!queries.seqAtOffset) {
          answer = await queries.seqs(current.sql);
          break;
        }
        const seq = await queries.seqAtOffset(current.family, current.offset);
        answer = seq === undefined ? [] : [seq];
        break;
      }
      case 'page':
        yield current.rows;
        break;
      case 'filter':
        budget?.check();
        answer = await filter(
          current.where,
          current.rows.map((row) => row.doc),
          budget,
          current.textsAt,
        );
        break;
      case 'pause':
        await pause();
        budget?.check();
        budget?.startSlice();
    }
  }
}

/**
 * The same without ever yielding to the event loop, for work inside a SQLite transaction: the
 * budget still stops it (the transaction then rolls back), though nothing else runs meanwhile.
 */
export function* readSelectionNow(
  plan: SelectionPlan,
  queries: { rows(fragment: SqlFragment): StoredRow[]; seqs(fragment: SqlFragment): number[]; texts(fragment: SqlFragment): string[] },
  budget?: QueryBudget,
): Generator<StoredRow[]> {
  let answer: PlanAnswer;
  for (let step = plan.next(); !step.done; step = plan.next(answer)) {
    answer = undefined;
    const current = step.value;
    if (current.kind !== 'page' && current.kind !== 'pause') budget?.check();
    if (current.kind === 'rows') answer = queries.rows(current.sql);
    else if (current.kind === 'seqs' || current.kind === 'seqAtOffset') answer = queries.seqs(current.sql);
    else if (current.kind === 'texts') answer = queries.texts(current.sql);
    else if (current.kind === 'page') yield current.rows;
    else if (current.kind === 'filter') answer = filterHere(current.where, current.rows, current.textsAt);
    else {
      budget?.check();
      budget?.startSlice();
    }
  }
}

/** A filter decided on this thread, where nothing may wait (inside a SQLite transaction). */
function filterHere(where: string, rows: StoredRow[], textsAt?: string): boolean[] {
  const evaluator = new QueryEvaluator(JSON.parse(where) as Condition);
  return rows.map((row) => evaluator.matches(asRecord(row.doc, textsAt)));
}
