import { CanActivate, ExecutionContext, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import passport from 'passport';
import type { Strategy } from 'passport';
import { AuthenticationFailedError } from '@inventory/http';
import { AUTH_SCHEME_KEY, AuthSchemeName, PUBLIC_KEY } from './auth-scheme.decorator';
import { BasicStrategy } from './basic.strategy';
import { JwtStrategy } from './jwt.strategy';

const CHALLENGES: Record<AuthSchemeName, string> = {
  jwt: 'Bearer realm="inventory"',
  basic: 'Basic realm="inventory", charset="UTF-8"',
};

/** A passport guard that answers failure with the contract's 401 instead of Nest's bare one. */
function passportGuard(scheme: AuthSchemeName, strategyName: string): CanActivate {
  class SchemeGuard extends AuthGuard(strategyName) {
    handleRequest<T>(error: unknown, principal: T): T {
      if (error || !principal) throw new AuthenticationFailedError(CHALLENGES[scheme]);
      return principal;
    }
  }
  return new SchemeGuard();
}

let appInstances = 0;

/**
 * The global guard. It runs the scheme the controller or handler declares; a route that
 * declares none and is not marked `@Public()` fails closed with 401.
 *
 * Passport keeps strategies in one process-wide registry by name, so with the plain names
 * `jwt`/`basic` the app created last would authenticate for every app in the process (tests
 * start several, with different secrets and databases). Each app's guard therefore registers
 * its own strategy instances under names of its own, and removes them once the app has closed.
 */
@Injectable()
export class AuthSchemeGuard implements CanActivate, OnApplicationShutdown {
  private readonly strategyNames: Record<AuthSchemeName, string>;
  private readonly guards: Record<AuthSchemeName, CanActivate>;

  constructor(
    private readonly reflector: Reflector,
    jwtStrategy: JwtStrategy,
    basicStrategy: BasicStrategy,
  ) {
    const instance = ++appInstances;
    this.strategyNames = { jwt: `jwt#${instance}`, basic: `basic#${instance}` };
    passport.use(this.strategyNames.jwt, jwtStrategy as unknown as Strategy);
    passport.use(this.strategyNames.basic, basicStrategy as unknown as Strategy);
    this.guards = {
      jwt: passportGuard('jwt', this.strategyNames.jwt),
      basic: passportGuard('basic', this.strategyNames.basic),
    };
  }

  canActivate(context: ExecutionContext) {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const scheme = this.reflector.getAllAndOverride<AuthSchemeName | undefined>(AUTH_SCHEME_KEY, targets);
    const guard = scheme ? this.guards[scheme] : undefined;
    if (!guard) throw new AuthenticationFailedError(CHALLENGES.jwt);
    return guard.canActivate(context);
  }

  /** After the HTTP server has closed, so that requests still in flight authenticate normally. */
  onApplicationShutdown(): void {
    for (const name of Object.values(this.strategyNames)) passport.unuse(name);
  }
}
