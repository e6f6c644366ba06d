/** A body the service will not read (forbidden key, too deep, not an object): HTTP 400. */
export class BodyError extends Error {
  readonly httpStatus = 400;

  constructor(message: string) {
    super(message);
    this.name = 'BodyError';
  }
}

/** The refusal of a body nested past `maxDepth`, from the scan of its bytes or the walk of its parse. */
export function nestedTooDeep(maxDepth: number): BodyError {
  return new BodyError(`body is nested deeper than ${maxDepth} levels`);
}
