/** A body the service will not read (forbidden key, too deep, not an object): HTTP 400. */
export class BodyError extends Error {
  readonly httpStatus = 400;

  constructor(message: string) {
    super(message);
    this.name = 'BodyError';
  }
}
