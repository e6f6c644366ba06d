import type { FastifyInstance, FastifyRequest } from 'fastify';
import { METHODS } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { BodyRefusedError } from './body-refused.error';
import { RequestAbortedError } from './request-aborted.error';

export interface BodyReaderOptions {
  limitBytes: number;
  /** One per body read, that sees its bytes and then what they parse to. */
  inspector: () => BodyInspector;
}

/** Throws an error with `message` to refuse the body (400). */
export interface BodyInspector {
  /**
   * Each chunk as it arrives, before anything is parsed: a refusal here leaves the rest unread,
   * e.g. at nesting too deep for JSON.parse to be let near it.
   */
  push(chunk: Buffer): void;
  /** The parsed body, with the text and the bytes it was parsed from. */
  inspect(body: unknown, text: string, bytes: Buffer): void;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** Where a Fastify instance keeps its options, for `readRequestBody`. */
const BODY_OPTIONS = Symbol('inventory.bodyOptions');
/** Set on a request once its body has been read (or found absent), so it is read once. */
const BODY_READ = Symbol('inventory.bodyRead');

type BodyRequest = FastifyRequest & { [BODY_READ]?: true };
/** Set on a message whose body `arrivedBody` took whole before the parser had marked it complete. */
const BODY_TAKEN = Symbol('inventory.bodyTaken');
type TakenMessage = IncomingMessage & { [BODY_TAKEN]?: true };

/**
 * Every method the HTTP parser accepts reaches the router (the rest answer 405, not 404), and
 * Fastify parses no body itself: `readRequestBody` does, as JSON, whatever the method — the
 * query language travels in GET and DELETE bodies. CONNECT never reaches the router: Node
 * hands it to the server's 'connect' event.
 */
export function readBodiesAsJson(fastify: FastifyInstance, options: BodyReaderOptions): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT') fastify.addHttpMethod(method, { hasBody: false, overrideExisting: true });
  }
  fastify.decorate(BODY_OPTIONS, options);
}

/**
 * Reads the request's body into `request.body`, once. Called by whatever admits the request
 * (the app's global guard), never before: a request that lacks credentials is refused without
 * its body being read (docs/routes.md), and the error answer then closes the connection.
 *
 * Refuses with 413 past the limit, 415 for a body that is not JSON, 400 for JSON that does not
 * parse or that the inspector refuses. A request without a body, or with only
 * whitespace, gets `body` undefined. Answers undefined (no promise) when there is nothing to
 * read, which is the hot path of every GET, and when the whole body had arrived already, which
 * is that of most bodies (`arrivedBody`).
 *
 * Not a Fastify content-type parser: those bind an AsyncResource per request, which on Node 20
 * costs ~8 µs and garbage (measured: 3% of a single create's profile).
 */
export function readRequestBody(request: FastifyRequest): Promise<void> | undefined {
  if (!hasBody(request.raw)) return undefined;
  const marked = request as BodyRequest;
  if (marked[BODY_READ]) return undefined;
  marked[BODY_READ] = true;
  const options = (request.server as unknown as Record<symbol, BodyReaderOptions>)[BODY_OPTIONS];
  const inspector = options.inspector();
  // NaN when the body is chunked.
  const announced = Number(request.raw.headers['content-length'] ?? NaN);
  /** Parses the body into `request.body` if it has all arrived; false if it has not. */
  const tookArrived = (): boolean => {
    const arrived = arrivedBody(request.raw, announced, inspector, options);
    if (arrived === undefined) return false;
    request.body = parseJson(arrived, inspector);
    return true;
  };
  try {
    checkMediaType(request);
    if (announced > options.limitBytes) throw tooLarge(options);
    if (tookArrived()) return undefined;
  } catch (refusal: unknown) {
    // A refusal of the body, as a rejected promise: as if it had come while the body streamed in.
    return Promise.reject(refusal instanceof Error ? refusal : new Error(String(refusal)));
  }
  // A GET's guard runs inside the parser's callback for the headers, before the parser has gone
  // on to the body of the same packet: one microtask later that body is whole, and is taken
  // without the stream's listeners and events (W3: ~10 µs a request).
  return Promise.resolve().then(() => {
    if (tookArrived()) return;
    return readBytes(request.raw, inspector, options).then((bytes) => {
      request.body = parseJson(bytes, inspector);
    });
  });
}

/** Whether body bytes are still to arrive: an answer now should close the connection. */
export function hasUnreadBody(request: IncomingMessage): boolean {
  return !request.complete && !(request as TakenMessage)[BODY_TAKEN] && hasBody(request);
}

function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function checkMediaType(request: FastifyRequest): void {
  // What nearly every client sends: nothing to split off or match.
  if (request.headers['content-type'] === 'application/json') return;
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new BodyRefusedError(415, `Content-Type must be application/json, not "${mediaType || 'none'}"`);
  }
}

/**
 * The body's text if all of it has arrived and nobody has read any of it, else undefined. A
 * small body mostly comes in the packet of its headers, so Node's parser has buffered all of it
 * before the guard admits the request: it is taken at once, without a listener, a promise or an
 * `await` in the guard (W2 and W3 send such bodies). The parser marks the message `complete`
 * only a callback later (measured: in the guard's microtasks every byte of a W2 create is
 * buffered and `complete` is still false), so a body of announced length is whole once that
 * many bytes wait; a chunked one only once complete.
 */
function arrivedBody(payload: TakenMessage, announced: number, inspector: BodyInspector, options: BodyReaderOptions): Buffer | undefined {
  if (payload.destroyed || payload.readableFlowing !== null) return undefined;
  if (!payload.complete && !(payload.readableLength >= announced)) return undefined;
  const whole = payload.read() as Buffer | null;
  payload[BODY_TAKEN] = true;
  if (whole === null) return Buffer.alloc(0);
  const refusal = refusalOf(whole, whole.length, inspector, options);
  if (refusal) throw refusal;
  return whole;
}

/** What a chunk of the body earns once `received` bytes are in: 413 past the limit, 400 from the inspector. */
function refusalOf(chunk: Buffer, received: number, inspector: BodyInspector, options: BodyReaderOptions): BodyRefusedError | undefined {
  if (received > options.limitBytes) return tooLarge(options);
  try {
    inspector.push(chunk);
  } catch (error) {
    return new BodyRefusedError(400, (error as Error).message);
  }
  return undefined;
}

function parseJson(bytes: Buffer, inspector: BodyInspector): unknown {
  const text = bytes.toString('utf8');
  if (text.trim().length === 0) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BodyRefusedError(400, 'body is not valid JSON');
  }
  try {
    inspector.inspect(body, text, bytes);
  } catch (error) {
    throw new BodyRefusedError(400, (error as Error).message);
  }
  return body;
}

function tooLarge({ limitBytes }: BodyReaderOptions): BodyRefusedError {
  return new BodyRefusedError(413, `body is larger than ${limitBytes} bytes`);
}

function readBytes(payload: IncomingMessage, inspector: BodyInspector, options: BodyReaderOptions): Promise<Buffer> {
  // The client may have left while the guard checked its credentials: 'close' has been and gone.
  if (payload.destroyed) return Promise.reject(new RequestAbortedError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    // The rest is left unread; the error answer closes the connection (EnvelopeExceptionFilter).
    const stop = (error: Error) => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('close', onClose);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      const refusal = refusalOf(chunk, received, inspector, options);
      if (refusal) return stop(refusal);
      chunks.push(chunk);
    };
    const onEnd = () => {
      payload.off('close', onClose);
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    // The client left, or the request timeout cut it off: nobody is waiting for an answer.
    const onClose = () => stop(new RequestAbortedError());
    payload.on('data', onData);
    payload.once('end', onEnd);
    payload.once('close', onClose);
    // Errors are followed by 'close'; a listener keeps them from being thrown.
    payload.once('error', () => undefined);
  });
}
