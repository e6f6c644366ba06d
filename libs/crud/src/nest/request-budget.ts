import type { FastifyReply } from 'fastify';
import { QueryBudget } from '../core/query/query-budget';

/**
 * The budget of the query a request carries: `limitMs` from its start, and over as soon as the
 * client closes the connection before the answer is complete (no one would read the rest).
 */
export function requestBudget(reply: FastifyReply, limitMs: number): QueryBudget {
  const gone = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return new QueryBudget(limitMs, gone.signal);
}
