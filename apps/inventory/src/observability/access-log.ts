import type { Logger } from 'pino';
import { ResponseObserver, routeFamily } from '@inventory/http';

/**
 * One `info` line per answered request: id, method, route pattern (never the URL, which can
 * hold ids and queries), family, status and milliseconds. Nothing of the request's headers or
 * body: credentials and records never reach the log.
 */
export function accessLogObserver(logger: Logger): ResponseObserver {
  const access = logger.child({ context: 'Access' });
  return (request, reply) => {
    if (!access.isLevelEnabled('info')) return;
    access.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        family: routeFamily(request),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  };
}
