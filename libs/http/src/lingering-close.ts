import type { Socket } from 'node:net';

/** How long a refused client may go on sending before the connection is cut. */
export const LINGER_MS = 2000;

/**
 * Closes a connection whose request was answered before its body was read (no credentials, too
 * large, too deep) without resetting it under the client. Node destroys the socket as soon as
 * the answer is flushed; with body bytes still arriving, the kernel then answers them with a
 * reset, which can discard the answer before the client reads it (it sees EPIPE, not the 401).
 * So the server half-closes, goes on discarding what arrives, and destroys the socket when the
 * client closes its side or after `lingerMs`, whichever is first: the refusal is read, and the
 * body still costs no memory.
 */
export function lingerBeforeClose(socket: Socket | null | undefined, lingerMs = LINGER_MS): void {
  if (!socket || socket.destroyed) return;
  // Node's server calls destroySoon() once the answer with `Connection: close` is written.
  (socket as Socket & { destroySoon(): void }).destroySoon = function lingeringDestroySoon(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}
