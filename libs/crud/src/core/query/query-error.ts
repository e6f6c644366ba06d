/** A malformed query: the HTTP layer answers 400 with this message. */
export class QueryError extends Error {
  readonly httpStatus = 400;

  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}
