/** A read or delete matched nothing: HTTP 404. */
export class RecordNotFoundError extends Error {
  readonly httpStatus = 404;

  constructor(message: string) {
    super(message);
    this.name = 'RecordNotFoundError';
  }
}
