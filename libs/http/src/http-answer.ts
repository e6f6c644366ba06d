import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A finished HTTP answer: status, headers and JSON text (or JSON text chunks to stream). Written
 * straight to Node's response, because Express's `res.json` empties a 205 body, and the spec
 * requires the delete envelopes in it.
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

  async writeTo(response: ServerResponse): Promise<void> {
    const hasBody = this.body !== undefined && this.status !== 204 && this.status !== 304;
    const headers: Record<string, string | number> = { ...this.headers };
    if (!hasBody) {
      response.writeHead(this.status, headers);
      response.end();
      return;
    }
    headers['Content-Type'] = JSON_TYPE;
    if (typeof this.body === 'string') {
      headers['Content-Length'] = Buffer.byteLength(this.body);
      response.writeHead(this.status, headers);
      response.end(this.body);
      return;
    }
    response.writeHead(this.status, headers);
    try {
      await pipeline(Readable.from(this.body as AsyncIterable<string>, { objectMode: false }), response);
    } catch {
      // The status line is gone: a failure mid-stream can only cut the connection, which the
      // client sees as a truncated (invalid) JSON array rather than a false success.
      response.destroy();
    }
  }
}
