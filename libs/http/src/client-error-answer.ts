import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { errorEnvelope } from './envelope';
import { SECURITY_HEADERS } from './security-headers';

/** The security headers as raw header lines, built once. */
const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * Answers what Node's HTTP parser refuses before any route sees the request (bad framing, headers
 * too large, the request timeout) with the contract's envelope instead of Fastify's own object
 * (docs/routes.md), then closes the connection: after a framing error nothing more on it can be
 * trusted, and a timed-out client gets no second chance. No header of the request can be trusted
 * either, so the answer's `X-Request-Id` is always a new one.
 */
export function clientErrorAnswerer(requestTimeoutMs: number): (error: NodeJS.ErrnoException, socket: Socket) => void {
  const refusals: Record<string, [number, string]> = {
    ERR_HTTP_REQUEST_TIMEOUT: [408, `the request did not arrive within ${requestTimeoutMs / 1000} s`],
    HPE_HEADER_OVERFLOW: [431, 'the request headers are too large'],
    HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'the chunk extensions are too large'],
  };
  return (error, socket) => {
    // A reset connection has nobody to answer to.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] = refusals[error.code ?? ''] ?? [400, 'the request is not valid HTTP'];
    // Once an answer has started on this connection, writing another would corrupt it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) socket.write(rawAnswer(status, message));
    socket.destroy();
  };
}

function rawAnswer(status: number, message: string): string {
  const body = JSON.stringify(errorEnvelope(status, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${randomUUID()}\r\n` +
    SECURITY_HEADER_LINES +
    'Connection: close\r\n\r\n' +
    body
  );
}
