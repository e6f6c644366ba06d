import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { METHODS } from 'node:http';
import { CorsPolicy } from './cors';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id';
import { ResponseObserver } from './response-observer';
import { SECURITY_HEADERS } from './security-headers';
import { errorEnvelope } from './envelope';
import { HttpAnswer } from './http-answer';
import { AnswerBatch } from './answer-batch';
import { MethodNotAllowedError } from './method-not-allowed.error';
import { BodyReaderOptions, hasUnreadBody, readBodiesAsJson } from './body-reader';
import { clientErrorAnswerer } from './client-error-answer';
import { lingerBeforeClose } from './lingering-close';

export interface InventoryHttpOptions extends BodyReaderOptions {
  /** Headers and body must arrive within this, else 408 and the connection closes. */
  requestTimeoutMs?: number;
  /** Connections beyond this many open ones are closed as they are accepted. */
  maxConnections?: number;
  /** Origins whose pages may call the service (`*` for any); none: no CORS headers at all. */
  corsOrigins?: readonly string[];
  /**
   * Which proxies' `X-Forwarded-For` to believe for the client address (Fastify's
   * `trustProxy`): the address is what throttling and the logs key on.
   */
  trustProxy?: boolean | number | string[];
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 10_000;

/** Every method that reaches the router (Node sends CONNECT elsewhere), in the order `Allow` lists them. */
const COMMON_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const ROUTABLE_METHODS = [...COMMON_METHODS, ...METHODS.filter((m) => !COMMON_METHODS.includes(m) && m !== 'CONNECT')];

/** Encoded ids reach 256 characters × 12 bytes (`%F0%9F%98%80` per astral character). */
const MAX_PARAM_LENGTH = 4096;

/**
 * Nest's Fastify adapter, with what the contract needs from HTTP in one place:
 * - an `HttpAnswer` is sent as it is, status, headers and bytes, with the other answers of its
 *   event-loop turn (`AnswerBatch`);
 * - every body is JSON, read by `readRequestBody` once the request is admitted, whatever the
 *   method (queries travel in GET);
 * - a known path asked with any other method, WebDAV's included, answers 405 with `Allow`, for
 *   every controller, without a catch-all route in each;
 * - slow or idle clients cannot hold the server: a request timeout and a connection cap, and the
 *   HTTP parser's own refusals are envelopes too;
 * - every answer carries the security headers and its request id (`X-Request-Id`: the client's
 *   when valid, else a new UUID), and CORS when origins are configured; all set in one
 *   onRequest hook, before anything can answer.
 * Fastify rather than Express: on the same machine, the bare Nest app answers 60k req/s on
 * Fastify and 8k on Express (README, design notes).
 */
export class InventoryHttpAdapter extends FastifyAdapter {
  private readonly methodsByPath = new Map<string, Set<string>>();
  private readonly answers = new AnswerBatch();

  constructor(options: InventoryHttpOptions) {
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const cors = options.corsOrigins?.length ? new CorsPolicy(options.corsOrigins) : undefined;
    // Answers true when it answered the request itself (a CORS preflight).
    const prepare = (request: FastifyRequest, reply: FastifyReply): boolean => {
      reply.headers(SECURITY_HEADERS).header(REQUEST_ID_HEADER, request.id);
      return cors !== undefined && cors.apply(request, reply);
    };
    super({
      skipMiddie: true,
      // No logger for Fastify: it would build a child logger per request. The app logs what it
      // needs with the request id (README "Logs").
      logger: false,
      genReqId: requestIdFor,
      trustProxy: options.trustProxy ?? false,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
      // Fastify 5 disables Node's request timeout (0) and sets it after creating the server.
      requestTimeout,
      http: {
        requestTimeout,
        headersTimeout: requestTimeout,
        // Node checks timeouts on this beat (default 30 s, which would double a 30 s timeout).
        connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeout / 10))),
      },
      clientErrorHandler: clientErrorAnswerer(requestTimeout),
      // Refusals Fastify makes while routing (a malformed percent-encoding) never reach Nest.
      frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        if (prepare(request, reply)) return;
        const status = error.statusCode ?? 400;
        const unread = hasUnreadBody(request.raw);
        if (unread) lingerBeforeClose(request.raw.socket);
        const headers = unread ? { Connection: 'close' } : undefined;
        HttpAnswer.json(status, errorEnvelope(status, error.message), headers).writeTo(reply);
      },
    });
    // Node closes connections past this as it accepts them, before they cost a parser.
    this.getInstance().server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    readBodiesAsJson(this.getInstance(), options);
    this.getInstance().addHook('onRequest', (request, reply, done) => {
      // A preflight answered here must not go on to the route.
      if (!prepare(request, reply)) done();
    });
  }

  /**
   * Tells each observer of every answer (access log, metrics). Call before the app is
   * initialised. Nest's adapter (11.2) adds an `onResponse` hook of its own, so Fastify already
   * times every request and listens for the end of its answer; this adds only the observers'
   * loop. Taking Nest's no-op hooks off the routes measured no gain (W1 51.9 µs an answer with
   * them, 53.9 without, within the windows' spread; docs/performance-history.md).
   */
  observeResponses(observers: readonly ResponseObserver[]): void {
    if (observers.length === 0) return;
    this.getInstance().addHook('onResponse', (request, reply, done) => {
      for (const observe of observers) observe(request, reply);
      done();
    });
  }

  reply(response: any, body: any, statusCode?: number): any {
    if (body instanceof HttpAnswer) return this.answers.write(body, response);
    return super.reply(response, body, statusCode);
  }

  get(...args: any[]): any {
    return this.route('GET', args, () => super.get(...args));
  }

  post(...args: any[]): any {
    return this.route('POST', args, () => super.post(...args));
  }

  put(...args: any[]): any {
    return this.route('PUT', args, () => super.put(...args));
  }

  delete(...args: any[]): any {
    return this.route('DELETE', args, () => super.delete(...args));
  }

  patch(...args: any[]): any {
    return this.route('PATCH', args, () => super.patch(...args));
  }

  /** Nest sets the not-found handler once every controller's routes are registered. */
  setNotFoundHandler(handler: any): any {
    this.answerOtherMethodsWith405();
    return super.setNotFoundHandler(handler);
  }

  private route<T>(method: string, args: any[], register: () => T): T {
    // With ignoreTrailingSlash, `/a` and `/a/` are one route to Fastify: record them as one.
    const path = typeof args[0] === 'string' ? args[0].replace(/(.)\/+$/, '$1') : undefined;
    if (path !== undefined) {
      const methods = this.methodsByPath.get(path) ?? new Set<string>();
      methods.add(method);
      // Fastify answers HEAD for every GET route (exposeHeadRoutes), without the body.
      if (method === 'GET') methods.add('HEAD');
      this.methodsByPath.set(path, methods);
    }
    return register();
  }

  /** Thrown, so that the error reaches the same exception filter as every other failure. */
  private answerOtherMethodsWith405(): void {
    const fastify = this.getInstance();
    for (const [url, methods] of this.methodsByPath) {
      const allowed = ROUTABLE_METHODS.filter((method) => methods.has(method));
      const missing = ROUTABLE_METHODS.filter((method) => !methods.has(method));
      if (missing.length === 0) continue;
      fastify.route({
        method: missing,
        url,
        handler: (request) => {
          throw new MethodNotAllowedError(request.method, allowed);
        },
      });
    }
    this.methodsByPath.clear();
  }
}
