import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A finished HTTP answer: status, headers and JSON text (or JSON text chunks to stream). Sent as
 * it is, so every status keeps its body: the contract puts the delete envelopes in a 205.
 */
export class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: string | AsyncIterable<string> | undefined,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  static json(status: number, value: unknown, headers?: Record<string, string>): HttpAnswer {
    return new HttpAnswer(status, JSON.stringify(value), headers);
  }

  writeTo(reply: FastifyReply): FastifyReply {
    reply.code(this.status).headers(this.headers);
    if (this.body === undefined || this.status === 204 || this.status === 304) return reply.send();
    reply.type(JSON_TYPE);
    if (typeof this.body === 'string') return reply.send(this.body);
    // A failure mid-stream can only cut the connection (Fastify destroys it): the client sees a
    // truncated, invalid JSON array rather than a false success.
    return reply.send(Readable.from(this.body, { objectMode: false }));
  }
}
