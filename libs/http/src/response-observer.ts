import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Told of every answer once it has been handed to the socket (Fastify's onResponse):
 * `reply.statusCode` is final and `reply.elapsedTime` is the milliseconds since the request
 * was routed. Must not throw, and must be cheap: it runs on every request.
 */
export type ResponseObserver = (request: FastifyRequest, reply: FastifyReply) => void;

/** `/exec-env/:id` and `/exec-env` are one family; a request no route matched is `unmatched`. */
export function routeFamily(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return 'unmatched';
  return url.endsWith('/:id') ? url.slice(0, -4) : url;
}
