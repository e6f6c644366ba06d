import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AuthenticationFailedError } from '@inventory/http';
import { AUTH_SCHEME_KEY, AuthSchemeName, PUBLIC_KEY } from './auth-scheme.decorator';

const CHALLENGES: Record<AuthSchemeName, string> = {
  jwt: 'Bearer realm="inventory"',
  basic: 'Basic realm="inventory", charset="UTF-8"',
};

/** A passport guard that answers failure with the contract's 401 instead of Nest's bare one. */
function passportGuard(scheme: AuthSchemeName): CanActivate {
  class SchemeGuard extends AuthGuard(scheme) {
    handleRequest<T>(error: unknown, principal: T): T {
      if (error || !principal) throw new AuthenticationFailedError(CHALLENGES[scheme]);
      return principal;
    }
  }
  return new SchemeGuard();
}

/**
 * The global guard. It runs the scheme the controller or handler declares; a route that
 * declares none and is not marked `@Public()` fails closed with 401.
 */
@Injectable()
export class AuthSchemeGuard implements CanActivate {
  private readonly guards: Record<AuthSchemeName, CanActivate> = {
    jwt: passportGuard('jwt'),
    basic: passportGuard('basic'),
  };

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext) {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const scheme = this.reflector.getAllAndOverride<AuthSchemeName | undefined>(AUTH_SCHEME_KEY, targets);
    const guard = scheme ? this.guards[scheme] : undefined;
    if (!guard) throw new AuthenticationFailedError(CHALLENGES.jwt);
    return guard.canActivate(context);
  }
}
