/** A request body the service will not read: too large (413), not JSON (415) or invalid (400). */
export class BodyRefusedError extends Error {
  constructor(
    readonly httpStatus: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'BodyRefusedError';
  }

  get publicMessage(): string {
    return this.message;
  }

  /** Past the limit the rest of the body is not worth reading: the connection closes instead. */
  get headers(): Record<string, string> {
    return this.httpStatus === 413 ? { Connection: 'close' } : {};
  }
}
