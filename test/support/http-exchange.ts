import { IncomingHttpHeaders, request as httpRequest } from 'node:http';

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
export function exchange(base: string, method: string, path: string, options: ExchangeOptions = {}): Promise<Exchange> {
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: false,
        localAddress: options.localAddress,
        headers: { ...options.headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // left as text
          }
          resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
