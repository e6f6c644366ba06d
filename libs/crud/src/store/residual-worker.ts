import { parentPort } from 'node:worker_threads';
import { QueryEvaluator } from '../core/query/query-evaluator';
import { Condition } from '../core/query/query.types';
import { asRecord } from './plan-step';

/** A page of stored records to check against a where clause (its JSON text). */
export interface ResidualJob {
  id: number;
  where: string;
  docs: string[];
  /** Set when each doc is a plain text, to be evaluated as `{ [textsAt]: doc }`. */
  textsAt?: string;
}

export type ResidualAnswer = { id: number; verdicts: boolean[] } | { id: number; error: string };

/**
 * The worker side of `ResidualPool`: checks pages of records against where clauses that hold
 * regular expressions, off the event loop's thread. Evaluators are kept per clause, so that a
 * query's patterns are compiled (and their automata built) once for all its pages.
 */
const evaluators = new Map<string, QueryEvaluator>();
const EVALUATORS_KEPT = 16;

function evaluatorFor(where: string): QueryEvaluator {
  let evaluator = evaluators.get(where);
  if (!evaluator) {
    evaluator = new QueryEvaluator(JSON.parse(where) as Condition);
    if (evaluators.size >= EVALUATORS_KEPT) evaluators.delete(evaluators.keys().next().value!);
    evaluators.set(where, evaluator);
  }
  return evaluator;
}

parentPort?.on('message', ({ id, where, docs, textsAt }: ResidualJob) => {
  let answer: ResidualAnswer;
  try {
    const evaluator = evaluatorFor(where);
    answer = { id, verdicts: docs.map((doc) => evaluator.matches(asRecord(doc, textsAt))) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
