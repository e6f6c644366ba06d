/**
 * The raw bound: the least a Node HTTP server must do to answer the benchmark's requests, with
 * the records in a Map. Same routes, status codes and bytes as the service for what the
 * benchmark sends, nothing else (no validation, no framework, no durability).
 *
 * Auth is a plain string compare of the whole `Authorization` header with the expected Bearer
 * token: that is cheaper than verifying an HS256 signature per request (the service does), so
 * the bound stays an upper bound. It keeps the 401 path honest enough that a client without the
 * token is refused.
 *
 * Started by run.ts as its own process: `PORT=… RAW_TOKEN=… node raw-server.ts`.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

interface Stored {
  /** The record as compact JSON text, answered as is. */
  json: string;
  /**
   * The parsed record, scanned by the equality filter: parsed before the first scan that needs it
   * (`parsePending`), not kept from the create. Keeping every created record's parsed objects
   * made the bound spend 39 % of its busy time in the garbage collector during W4 (`--cpu-prof`,
   * 2026-11-26: millions of long-lived objects), a cost of this Map, not of answering, which held
   * W4's bound at ~100k records/s where the same work in a loop runs at ~200k.
   */
  doc: Record<string, unknown> | undefined;
}

const records = new Map<string, Stored>();
/**
 * The same records in creation order (the Map's order), which the filter scans by index. Its scan
 * over `records.values()` was as fast as this one when W3 ran first, and 25-40 % slower when W1
 * had run before it (sixteenth session: 3.9-5.0k against 5.3-7.2k req/s, `--workloads W1,W3`
 * against `W3`; profiled, the scan stayed out of `handle`, which W1 had optimized). That made the
 * bound of every full run's W3 lower than a W3-only run's, and its ratio higher.
 */
const inOrder: Stored[] = [];
/** Records created since the last filter, whose `doc` is still to parse. */
let pending: Stored[] = [];
const expectedAuth = `Bearer ${process.env.RAW_TOKEN ?? ''}`;

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function envelope(status: string, code: number, message: string): string {
  return JSON.stringify([{ status, code, error: code >= 400, message }]);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

/** Appends to `found` the text of every record in `stored` whose value at the scanner's path equals `expr`. */
type Scanner = (stored: readonly Stored[], expr: unknown, found: string[]) => void;
const scanners = new Map<string, Scanner>();

/**
 * The full scan for one dotted path (no list expansion: the benchmark filters on top-level
 * scalars), compiled once per path with the path's property loads written out, so that each
 * path's loop keeps inline caches and a call site of its own. One shared loop reading
 * `doc[key]` went megamorphic once a second path had been asked for, and the bound's W3 fell
 * from ~7k to ~4k req/s depending on which workloads had run before it (W3U after W3: 3.7k).
 * A reader per path called from one shared loop still left that call site to whichever paths
 * had been asked for: W3U's bound, run after W3, 5.7-6.1k req/s against W3's 7.4-8.0k over the
 * same records (sixteenth session). Either flattered the ratios taken after it.
 */
function scannerOf(target: string): Scanner {
  let scanner = scanners.get(target);
  if (!scanner) {
    const steps = target
      .split('.')
      .map((key) => `value = value !== null && typeof value === 'object' ? value[${JSON.stringify(key)}] : undefined;`)
      .join(' ');
    const matches =
      "value === expr || (typeof expr === 'string' && (typeof value === 'number' || typeof value === 'boolean') && String(value) === expr)";
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- code of its own per path, for its own inline caches; each key is a JSON string literal
    scanner = new Function(
      'stored',
      'expr',
      'found',
      `for (let index = 0; index < stored.length; index++) { let value = stored[index].doc; ${steps} if (${matches}) found.push(stored[index].json); }`,
    ) as Scanner;
    scanners.set(target, scanner);
  }
  return scanner;
}

function create(body: string, res: ServerResponse): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return send(res, 400, envelope('Bad Request', 400, 'Body is not JSON'));
  }
  const items = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[];
  if (items.length === 0) {
    res.writeHead(204).end();
    return;
  }
  const out: object[] = [];
  let allCreated = true;
  for (const doc of items) {
    const id = doc && typeof doc.id === 'string' ? doc.id : undefined;
    if (id === undefined || records.has(id)) {
      allCreated = false;
      out.push({ status: 'Not Acceptable', code: 406, error: true, message: id === undefined ? { id: 'required' } : 'Id already found' });
      continue;
    }
    const stored: Stored = { json: JSON.stringify(doc), doc: undefined };
    records.set(id, stored);
    inOrder.push(stored);
    pending.push(stored);
    out.push({ status: 'Created', code: 201, error: false, message: `Event with id=${id} correctly created` });
  }
  send(res, allCreated ? 201 : out.length === 1 ? 406 : 207, JSON.stringify(out));
}

function filter(body: string, res: ServerResponse): void {
  let equals: { target?: unknown; expr?: unknown } | undefined;
  try {
    equals = JSON.parse(body)?.where?.equals;
  } catch {
    return send(res, 400, envelope('Bad Request', 400, 'Body is not JSON'));
  }
  if (!equals || typeof equals.target !== 'string') {
    return send(res, 400, envelope('Bad Request', 400, 'Only {"where":{"equals":{...}}} is supported here'));
  }
  const { target, expr } = equals;
  parsePending();
  const found: string[] = [];
  // A full scan on purpose: the bound for "no index"; the service is expected to beat it.
  scannerOf(target)(inOrder, expr, found);
  if (found.length === 0) return send(res, 404, envelope('Not Found', 404, 'No event matches the query'));
  send(res, 200, `[${found.join(',')}]`);
}

/**
 * Parses the records created since the last filter, 10,000 texts per JSON.parse: objects parsed
 * together lie together, and scan as fast as those of the create's own parse (42-45 µs per scan
 * of 10k records, measured in a loop), where one parse per record gave 70 µs.
 */
function parsePending(): void {
  for (let from = 0; from < pending.length; from += 10_000) {
    const group = pending.slice(from, from + 10_000);
    const docs = JSON.parse(`[${group.map((stored) => stored.json).join(',')}]`) as Record<string, unknown>[];
    group.forEach((stored, index) => (stored.doc = docs[index]));
  }
  pending = [];
}

/** Every record as one JSON array, written a slice at a time and paced by the socket (backpressure). */
async function streamAll(res: ServerResponse): Promise<void> {
  if (records.size === 0) return send(res, 404, envelope('Not Found', 404, 'No event matches the query'));
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  let slice: string[] = [];
  let first = true;
  const flush = async (): Promise<void> => {
    const text = (first ? '[' : ',') + slice.join(',');
    first = false;
    slice = [];
    if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
  };
  for (const stored of records.values()) {
    slice.push(stored.json);
    if (slice.length === 1000) await flush();
  }
  if (slice.length > 0) await flush();
  res.end(']');
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  if (url === '/health') return send(res, 200, '{"status":"ok"}');
  if (req.headers.authorization !== expectedAuth) {
    req.resume();
    res.setHeader('WWW-Authenticate', 'Bearer realm="inventory"');
    return send(res, 401, envelope('Unauthorized', 401, 'Authentication failed'));
  }
  const path = url.split('?', 1)[0];
  if (path.startsWith('/event/') && req.method === 'GET') {
    req.resume();
    const id = decodeURIComponent(path.slice('/event/'.length));
    const stored = records.get(id);
    if (!stored) return send(res, 404, envelope('Not Found', 404, `Event with id=${id} not found`));
    return send(res, 200, `[${stored.json}]`);
  }
  if (path === '/event' || path === '/event/') {
    const body = await readBody(req);
    if (req.method === 'POST') return create(body, res);
    if (req.method === 'GET') return body.length > 0 ? filter(body, res) : streamAll(res);
    return send(res, 405, envelope('Method Not Allowed', 405, 'Method not allowed'));
  }
  req.resume();
  send(res, 404, envelope('Not Found', 404, 'No such route'));
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(`raw server: ${String(error)}\n`);
    if (!res.headersSent) send(res, 500, envelope('Internal Server Error', 500, 'Unexpected failure'));
    else res.destroy();
  });
});
// Same keep-alive behaviour as Node's default for the service; autocannon keeps connections open.
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
// Nothing to flush: the Map dies with the process.
process.on('SIGTERM', () => process.exit(0));
