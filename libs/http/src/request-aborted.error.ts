/**
 * The connection closed before the request body was complete: the client left, or the request
 * timeout cut it off (its 408 is already written). Nobody is waiting for an answer, and it is
 * not the server's failure, so it is neither answered nor logged: a flood of slow clients must
 * not become a flood of stack traces.
 */
export class RequestAbortedError extends Error {
  readonly httpStatus = 400;
  readonly clientGone = true;

  constructor() {
    super('the connection closed before the request body was complete');
    this.name = 'RequestAbortedError';
  }
}
