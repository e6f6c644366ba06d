import { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthenticationFailedError } from '@inventory/http';
import { addressKey, basicUser, userKey } from './attempt-keys';
import type { AuthSchemeName } from './auth-scheme.decorator';
import { FailureThrottle } from './failure-throttle';
import { KeyedQueue } from './keyed-queue';
import { TooManyAttemptsError } from './too-many-attempts.error';

export interface ThrottleOptions {
  /** Failures per user and per client address within the window before attempts get 429. */
  limit: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { limit: 5, windowMs: 60_000 };

interface Attempt {
  scheme: AuthSchemeName;
  reqId: string;
  address: string;
  user?: string;
  keys: string[];
}

/**
 * Throttles failed authentications (README "Throttling"): a client address, and for Basic also
 * the user it names, that failed `limit` times within the window is answered 429 with
 * `Retry-After` before any check runs, so a flood of guesses costs no scrypt and cannot crowd
 * out other users' logins. Basic checks run one at a time per user and per address (KeyedQueue),
 * so guesses sent together are counted before the next one runs. Failures are logged with
 * user and address, never the password or token.
 */
export class AttemptLimiter {
  private readonly throttle: FailureThrottle;
  private readonly queue = new KeyedQueue();
  private readonly logger = new Logger('Auth');

  constructor(options: ThrottleOptions = DEFAULT_THROTTLE) {
    this.throttle = new FailureThrottle(options.limit, options.windowMs);
  }

  /**
   * Runs `check`, which throws AuthenticationFailedError for bad credentials, unless the
   * request's address or user must wait (TooManyAttemptsError); counts its failure.
   */
  attempt<T>(request: FastifyRequest, scheme: AuthSchemeName, check: () => Promise<T>): Promise<T> {
    const user = scheme === 'basic' ? basicUser(request.headers.authorization) : undefined;
    const keys = [addressKey(request.ip), ...(user === undefined ? [] : [userKey(user)])];
    const attempt: Attempt = { scheme, reqId: request.id, address: request.ip, user, keys };
    // Before queueing too: a flood that is already refused never waits in line.
    this.refuseIfWaiting(attempt);
    // A token is checked in microseconds: only password checks need to queue.
    if (scheme === 'jwt') return this.checked(attempt, check);
    return this.queue.run(keys, () => {
      this.refuseIfWaiting(attempt);
      return this.checked(attempt, check);
    });
  }

  private refuseIfWaiting(attempt: Attempt): void {
    const waitMs = Math.max(...attempt.keys.map((key) => this.throttle.waitMs(key)));
    if (waitMs <= 0) return;
    this.logger.debug({ msg: 'authentication refused: too many failures', ...describe(attempt), retryAfterS: Math.ceil(waitMs / 1000) });
    throw new TooManyAttemptsError(Math.ceil(waitMs / 1000));
  }

  private async checked<T>(attempt: Attempt, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (error instanceof AuthenticationFailedError) this.fail(attempt);
      throw error;
    }
  }

  private fail(attempt: Attempt): void {
    this.logger.warn({ msg: 'authentication failed', ...describe(attempt) });
    for (const key of attempt.keys) {
      if (this.throttle.fail(key)) {
        this.logger.warn({
          msg: `authentication throttled: ${this.throttle.limit} failures within ${this.throttle.windowMs / 1000} s`,
          reqId: attempt.reqId,
          throttled: key,
          retryAfterS: Math.ceil(this.throttle.waitMs(key) / 1000),
        });
      }
    }
  }
}

function describe(attempt: Attempt): Record<string, unknown> {
  return {
    reqId: attempt.reqId,
    scheme: attempt.scheme,
    address: attempt.address,
    ...(attempt.user === undefined ? {} : { user: attempt.user }),
  };
}
