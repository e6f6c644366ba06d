/** A known route asked with a method it does not have: 405 with an `Allow` header. */
export class MethodNotAllowedError extends Error {
  readonly httpStatus = 405;

  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`Method ${method} is not allowed here; allowed: ${allowed.join(', ')}`);
    this.name = 'MethodNotAllowedError';
  }

  get publicMessage(): string {
    return this.message;
  }

  get headers(): Record<string, string> {
    return { Allow: this.allowed.join(', ') };
  }
}
