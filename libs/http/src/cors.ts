import type { FastifyReply, FastifyRequest } from 'fastify';

/** What a page on an allowed origin may send and read (README "CORS"). */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id';
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, WWW-Authenticate, Allow';
/** Browsers cap it anyway (Chromium at 2 h); 10 min keeps a changed list from lingering long. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * Cross-origin access for the origins an operator lists (`INVENTORY_CORS_ORIGINS`), `*` for
 * any. Credentials travel in the `Authorization` header, never in cookies, so
 * `Access-Control-Allow-Credentials` is not needed and `*` stays safe to offer.
 *
 * Decided before routing: a preflight (OPTIONS with `Origin` and
 * `Access-Control-Request-Method`) from an allowed origin is answered 204 on any path, a
 * family's `/{id}` included, without credentials (browsers send none with a preflight). Any
 * other OPTIONS goes on to the route and answers 405 with `Allow`, as docs/routes.md says.
 */
export class CorsPolicy {
  private readonly anyOrigin: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.anyOrigin = origins.includes('*');
    this.origins = new Set(origins.map((origin) => origin.toLowerCase()));
  }

  /** The `Access-Control-Allow-Origin` value for this `Origin`, or undefined when it is not allowed. */
  allowedOrigin(origin: string | undefined): string | undefined {
    if (origin === undefined) return undefined;
    if (this.anyOrigin) return '*';
    return this.origins.has(origin.toLowerCase()) ? origin : undefined;
  }

  /**
   * Adds the CORS headers a request's answer needs; answers true when the request was a
   * preflight and has been answered.
   */
  apply(request: FastifyRequest, reply: FastifyReply): boolean {
    // Caches must keep answers to different origins apart, whatever this one was.
    reply.header('vary', 'Origin');
    const allowed = this.allowedOrigin(request.headers.origin);
    if (allowed === undefined) return false;
    reply.header('access-control-allow-origin', allowed);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply
        .code(204)
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
        .send();
      return true;
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    return false;
  }
}
