import type { IncomingHttpHeaders } from 'node:http';
import { sendJson } from './json-http';

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed when JSON, else the text. */
  body: any;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

export interface ExchangeOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** The client address the server sees: any 127.x.y.z reaches a server on 127.0.0.1 (Linux). */
  localAddress?: string;
}

/** One request on a connection of its own, with the answer's headers: for tests of what HTTP carries around the body. */
export async function exchange(base: string, method: string, path: string, options: ExchangeOptions = {}): Promise<Exchange> {
  const started = performance.now();
  const answer = await sendJson(base, method, path, { ...options, ownConnection: true });
  return { status: answer.status, headers: answer.headers, body: answer.body, ms: performance.now() - started };
}
