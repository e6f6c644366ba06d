import type { FastifyRequest } from 'fastify';
import { QueryError } from '../core/query/query-error';

/**
 * The query of a GET or DELETE: its JSON body, or the same JSON URL-encoded in `?q=` for
 * clients that cannot send a body with GET. Both at once is ambiguous.
 */
export function queryFromRequest(request: FastifyRequest): unknown {
  const encoded = (request.query as Record<string, unknown>).q;
  if (encoded === undefined) return request.body;
  if (request.body !== undefined) throw new QueryError('send the query either as the body or as ?q=, not both');
  if (typeof encoded !== 'string') throw new QueryError('?q= must be given once');
  try {
    return JSON.parse(encoded);
  } catch {
    throw new QueryError('?q= is not valid JSON');
  }
}
