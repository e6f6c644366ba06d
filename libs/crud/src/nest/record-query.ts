import type { FastifyRequest } from 'fastify';
import { BodyError } from '../core/body/body-error';
import { assertSafeBody } from '../core/body/body-guard';
import { assertJsonDepth } from '../core/body/json-depth';
import { QueryError } from '../core/query/query-error';

/**
 * The query of a GET or DELETE: its JSON body, or the same JSON URL-encoded in `?q=` for
 * clients that cannot send a body with GET. Both at once is ambiguous.
 */
export function queryFromRequest(request: FastifyRequest, sizeLimit: number): unknown {
  const encoded = (request.query as Record<string, unknown>).q;
  if (encoded === undefined) return request.body;
  if (request.body !== undefined) throw new QueryError('send the query either as the body or as ?q=, not both');
  if (typeof encoded !== 'string') throw new QueryError('?q= must be given once');
  if (Buffer.byteLength(encoded, 'utf8') > sizeLimit) throw new QueryTooLargeError(sizeLimit);
  return parseQueryParameter(encoded);
}

/** `?q=` larger than a body may be: 413, as for the body (the header limit usually answers 431 first). */
export class QueryTooLargeError extends Error {
  readonly httpStatus = 413;

  constructor(limitBytes: number) {
    super(`?q= is larger than ${limitBytes} bytes`);
    this.name = 'QueryTooLargeError';
  }
}

/**
 * `?q=` obeys every rule of a JSON body (docs/query-language.md): depth is found before parsing, then
 * the parsed value passes the same guard as every body (prototype keys, numbers out of range,
 * lone surrogates). Its size is bounded by the body limit, and before that by the HTTP
 * parser's header limit (431 past it).
 */
export function parseQueryParameter(encoded: string): unknown {
  let parsed: unknown;
  try {
    assertJsonDepth(encoded);
    parsed = JSON.parse(encoded);
    assertSafeBody(parsed);
  } catch (error) {
    if (error instanceof BodyError) throw new QueryError(`?q= ${error.message.replace(/^body /, '')}`);
    throw new QueryError('?q= is not valid JSON');
  }
  return parsed;
}
