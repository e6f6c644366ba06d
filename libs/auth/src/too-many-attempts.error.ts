/** Too many failed authentications for this user or address: 429 with `Retry-After` (seconds). */
export class TooManyAttemptsError extends Error {
  readonly httpStatus = 429;

  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed authentication attempts');
    this.name = 'TooManyAttemptsError';
  }

  get publicMessage(): string {
    return `Too many failed authentication attempts; retry in ${this.retryAfterSeconds} s`;
  }

  get headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}
