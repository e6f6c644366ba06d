import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from './envelope';
import { HttpAnswer } from './http-answer';
import { MethodNotAllowedError } from './method-not-allowed.error';
import { BodyReaderOptions, readBodiesAsJson } from './body-reader';

/** Every method a route can be asked with; the ones it lacks answer 405. */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;
type Method = (typeof METHODS)[number];

/** Encoded ids reach 256 characters × 12 bytes (`%F0%9F%98%80` per astral character). */
const MAX_PARAM_LENGTH = 4096;

/**
 * Nest's Fastify adapter, with what the contract needs from HTTP in one place:
 * - an `HttpAnswer` is sent as it is, status, headers and bytes;
 * - every body is JSON, read by `readBodiesAsJson`, whatever the method (queries travel in GET);
 * - a known path asked with another method answers 405 with `Allow`, for every controller,
 *   without a catch-all route in each.
 * Fastify rather than Express: on the same machine, the bare Nest app answers 60k req/s on
 * Fastify and 8k on Express (README, design notes).
 */
export class InventoryHttpAdapter extends FastifyAdapter {
  private readonly methodsByPath = new Map<string, Set<Method>>();

  constructor(bodies: BodyReaderOptions) {
    super({
      skipMiddie: true,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
      // Refusals Fastify makes while routing (a malformed percent-encoding) never reach Nest.
      frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
        const status = error.statusCode ?? 400;
        HttpAnswer.json(status, errorEnvelope(status, error.message)).writeTo(reply);
      },
    });
    readBodiesAsJson(this.getInstance(), bodies);
  }

  reply(response: any, body: any, statusCode?: number): any {
    if (body instanceof HttpAnswer) return body.writeTo(response);
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

  private route<T>(method: Method, args: any[], register: () => T): T {
    // With ignoreTrailingSlash, `/a` and `/a/` are one route to Fastify: record them as one.
    const path = typeof args[0] === 'string' ? args[0].replace(/(.)\/+$/, '$1') : undefined;
    if (path !== undefined) {
      const methods = this.methodsByPath.get(path) ?? new Set<Method>();
      methods.add(method);
      if (method === 'GET') methods.add('HEAD');
      this.methodsByPath.set(path, methods);
    }
    return register();
  }

  /** Thrown, so that the error reaches the same exception filter as every other failure. */
  private answerOtherMethodsWith405(): void {
    const fastify = this.getInstance();
    for (const [url, methods] of this.methodsByPath) {
      const allowed = METHODS.filter((method) => methods.has(method) && method !== 'HEAD');
      const missing = METHODS.filter((method) => !methods.has(method));
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
