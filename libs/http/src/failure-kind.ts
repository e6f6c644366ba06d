import type { FastifyRequest } from 'fastify';

/**
 * What kind of server-side failure a request's answer reports, noted by the exception filter
 * and read by whoever counts them (the app's metrics), so that neither depends on the other.
 * `store-*` are the database's; `unexpected` is a 500 with a reference.
 */
export type FailureKind = 'store-unavailable' | 'store-busy' | 'store-refused' | 'unexpected' | 'after-answer';

const FAILURE = Symbol('inventory.failure');

type MarkedRequest = FastifyRequest & { [FAILURE]?: FailureKind };

export function noteFailure(request: FastifyRequest | undefined, kind: FailureKind): void {
  if (request) (request as MarkedRequest)[FAILURE] = kind;
}

export function failureOf(request: FastifyRequest): FailureKind | undefined {
  return (request as MarkedRequest)[FAILURE];
}
