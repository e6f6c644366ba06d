import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ClientGone, QueryBudget } from '../core/query/query-budget';

/**
 * The budget of the query a request carries: `limitMs` from its start, and over as soon as the
 * client closes the connection before the answer is complete (no one would read the rest).
 */
export function requestBudget(reply: FastifyReply, limitMs: number): QueryBudget {
  return new QueryBudget(limitMs, new ResponseAbandoned(reply.raw));
}

/**
 * The response was closed before it finished. Read from the response's own state, and listened
 * for only when a budget must stop work in flight: an AbortController and a 'close' listener per
 * read cost 4 % of a read by id (profile of W1, README "Performance").
 */
class ResponseAbandoned implements ClientGone {
  private readonly listeners = new Map<() => void, () => void>();

  constructor(private readonly response: ServerResponse) {}

  get aborted(): boolean {
    return this.response.destroyed && !this.response.writableFinished;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    const onClose = () => {
      this.listeners.delete(listener);
      if (!this.response.writableFinished) listener();
    };
    this.listeners.set(listener, onClose);
    this.response.once('close', onClose);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const onClose = this.listeners.get(listener);
    if (onClose === undefined) return;
    this.listeners.delete(listener);
    this.response.off('close', onClose);
  }
}
