import { IncomingHttpHeaders, request as httpRequest } from 'node:http';

export interface JsonAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  /** Date.now() when the answer was complete. */
  at: number;
}

export interface JsonRequestOptions {
  body?: unknown;
  authorization?: string;
  /** Called once the whole request has been written to the socket. */
  onSent?: () => void;
  /** A connection of its own (no keep-alive pool), as separate clients would have. */
  ownConnection?: boolean;
  /** Further request headers. */
  headers?: Record<string, string>;
  /** The client address the server sees: any 127.x.y.z reaches a server on 127.0.0.1 (Linux). */
  localAddress?: string;
}

/**
 * One real HTTP request with node:http, for suites that fire many at once or at real processes:
 * a body goes as JSON with any method (GET and DELETE carry queries). A body that is not JSON
 * is left as text, for the assertions to show.
 */
export function sendJson(base: string, method: string, path: string, options: JsonRequestOptions = {}): Promise<JsonAnswer> {
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: options.ownConnection ? false : undefined,
        localAddress: options.localAddress,
        headers: {
          ...options.headers,
          ...(options.authorization ? { Authorization: options.authorization } : {}),
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // left as text
          }
          resolve({ status: res.statusCode!, headers: res.headers, body: parsed, at: Date.now() });
        });
      },
    );
    req.on('error', reject);
    if (options.onSent) req.on('finish', options.onSent);
    req.end(payload);
  });
}

/** How many answers had each status, e.g. `{201: 1, 406: 49}`. */
export function countByStatus(answers: readonly JsonAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}
