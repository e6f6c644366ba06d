import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an incoming `X-Request-Id` may be to be kept: 1–128 characters of letters, digits and
 * `._:-` (UUIDs, ULIDs, most tracers' ids). Anything else is replaced, so that a client cannot
 * put line breaks, quotes or megabytes into every log line of its request.
 */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && VALID_REQUEST_ID.test(value);
}

/**
 * Fastify's `genReqId`: the client's id when it is valid, else a new UUID. A repeated header
 * arrives joined with ", " by Node, which the space makes invalid: a new one is generated.
 */
export function requestIdFor(request: IncomingMessage): string {
  const offered = request.headers[REQUEST_ID_HEADER];
  return isValidRequestId(offered) ? offered : randomUUID();
}
