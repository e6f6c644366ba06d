/** Missing or bad credentials: 401 with the challenge of the scheme the route expects. */
export class AuthenticationFailedError extends Error {
  readonly httpStatus = 401;
  readonly publicMessage = 'Authentication failed';

  constructor(readonly challenge: string) {
    super('Authentication failed');
    this.name = 'AuthenticationFailedError';
  }

  get headers(): Record<string, string> {
    return { 'WWW-Authenticate': this.challenge };
  }
}
