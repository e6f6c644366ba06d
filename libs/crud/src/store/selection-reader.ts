import { StoredRow } from './record-selection';
import { PlanAnswer, SelectionPlan } from './selection-plan';
import { SqlFragment } from './where-compiler';

/** How a store runs the selection's SQL; SQLite answers synchronously, pg asynchronously. */
export interface SelectionQueries {
  rows(fragment: SqlFragment): StoredRow[] | Promise<StoredRow[]>;
  seqs(fragment: SqlFragment): number[] | Promise<number[]>;
  /** Runs between pages, e.g. to let other requests in while SQLite blocks the thread. */
  betweenPages?: () => Promise<unknown>;
}

/** Runs a plan's queries as it asks for them, and yields its pages. */
export async function* readSelection(plan: SelectionPlan, queries: SelectionQueries): AsyncIterable<StoredRow[]> {
  let answer: PlanAnswer;
  for (let step = plan.next(); !step.done; step = plan.next(answer)) {
    answer = undefined;
    const current = step.value;
    switch (current.kind) {
      case 'rows':
        answer = await queries.rows(current.sql);
        break;
      case 'seqs':
        answer = await queries.seqs(current.sql);
        break;
      case 'page':
        yield current.rows;
        break;
      case 'pause':
        await queries.betweenPages?.();
    }
  }
}

/** The same without ever yielding to the event loop, for work inside a SQLite transaction. */
export function* readSelectionNow(
  plan: SelectionPlan,
  queries: { rows(fragment: SqlFragment): StoredRow[]; seqs(fragment: SqlFragment): number[] },
): Generator<StoredRow[]> {
  let answer: PlanAnswer;
  for (let step = plan.next(); !step.done; step = plan.next(answer)) {
    answer = undefined;
    const current = step.value;
    if (current.kind === 'rows') answer = queries.rows(current.sql);
    else if (current.kind === 'seqs') answer = queries.seqs(current.sql);
    else if (current.kind === 'page') yield current.rows;
  }
}
