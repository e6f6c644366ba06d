import { CanActivate, ExecutionContext, Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import passport from 'passport';
import type { Strategy } from 'passport';
import type { FastifyRequest } from 'fastify';
import { AuthenticationFailedError, readRequestBody } from '@inventory/http';
import { AUTH_OPTIONS, AuthOptions } from './auth-options';
import { AUTH_SCHEME_KEY, AuthSchemeName, PUBLIC_KEY } from './auth-scheme.decorator';
import { AttemptLimiter } from './attempt-limiter';
import { BasicStrategy } from './basic.strategy';
import { JwtPrincipal, JwtStrategy } from './jwt.strategy';
import { VerifiedTokenCache } from './verified-token.cache';

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

/** What a handler requires: no credentials, one scheme, or (undeclared) refusal. */
type Requirement = AuthSchemeName | 'public' | undefined;

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
  /**
   * Decorators do not change after start, so each route's requirement is looked up once. Keyed
   * by class, then handler: every family controller inherits the same handler functions.
   */
  private readonly requirements = new WeakMap<object, Map<object, Requirement>>();
  private readonly verifiedTokens = new VerifiedTokenCache<JwtPrincipal>();
  private readonly limiter: AttemptLimiter;

  constructor(
    private readonly reflector: Reflector,
    private readonly jwtStrategy: JwtStrategy,
    basicStrategy: BasicStrategy,
    @Inject(AUTH_OPTIONS) options: AuthOptions,
  ) {
    this.limiter = new AttemptLimiter(options.throttle);
    const instance = ++appInstances;
    this.strategyNames = { jwt: `jwt#${instance}`, basic: `basic#${instance}` };
    passport.use(this.strategyNames.jwt, jwtStrategy as unknown as Strategy);
    passport.use(this.strategyNames.basic, basicStrategy as unknown as Strategy);
    this.guards = {
      jwt: passportGuard('jwt', this.strategyNames.jwt),
      basic: passportGuard('basic', this.strategyNames.basic),
    };
  }

  /**
   * Admits the request, and only then has its body read: a request without credentials is
   * refused before a byte of its body is parsed (docs/routes.md), so unauthenticated 16 MB
   * bodies cost nothing. Nest runs guards before it extracts `@Body()`.
   *
   * A public route, or a bearer token that verified recently, with no body or one that has
   * arrived whole (most requests), is answered `true` in the same call: Nest awaits only a
   * promise, and every promise here was another turn of the microtask queue per request.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const requirement = this.requirementOf(context);
    if (requirement === undefined) throw new AuthenticationFailedError(CHALLENGES.jwt);
    if (requirement === 'public' || (requirement === 'jwt' && this.knownBearer(context))) return this.withBody(context);
    return this.checked(context, requirement);
  }

  private async checked(context: ExecutionContext, scheme: AuthSchemeName): Promise<boolean> {
    const admitted = scheme === 'jwt' ? await this.passportBearer(context) : await this.limited(context, scheme);
    return admitted && this.withBody(context);
  }

  /** True once the admitted request's body is read: at once when there is nothing to wait for. */
  private withBody(context: ExecutionContext): boolean | Promise<boolean> {
    const reading = readRequestBody(context.switchToHttp().getRequest<FastifyRequest>());
    return reading === undefined ? true : reading.then(() => true);
  }

  /** Whether the request's bearer token verified recently; if so, its principal is the request's user. */
  private knownBearer(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: JwtPrincipal }>();
    const token = this.jwtStrategy.tokenOf(request);
    const known = token === null ? undefined : this.verifiedTokens.get(token);
    if (known === undefined) return false;
    request.user = known;
    return true;
  }

  /** Any token not verified recently goes through passport, and is remembered once it passes. */
  private async passportBearer(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: JwtPrincipal }>();
    const allowed = await this.limited(context, 'jwt');
    const token = this.jwtStrategy.tokenOf(request);
    const exp = request.user?.claims.exp;
    if (allowed && token !== null && typeof exp === 'number') this.verifiedTokens.remember(token, request.user!, exp);
    return allowed;
  }

  /** Runs the scheme's check under the failure throttle (429 after too many failures). */
  private limited(context: ExecutionContext, scheme: AuthSchemeName): Promise<boolean> {
    const check = async () => (await this.guards[scheme].canActivate(context)) as boolean;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // Without credentials nothing is guessed: the plain 401 and its challenge, never counted
    // (a browser asks without them first).
    if (request.headers.authorization === undefined) return check();
    return this.limiter.attempt(request, scheme, check);
  }

  private requirementOf(context: ExecutionContext): Requirement {
    const [handler, controller] = [context.getHandler(), context.getClass()];
    let byHandler = this.requirements.get(controller);
    if (byHandler === undefined) this.requirements.set(controller, (byHandler = new Map<object, Requirement>()));
    if (byHandler.has(handler)) return byHandler.get(handler);
    const targets = [handler, controller];
    const requirement: Requirement = this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)
      ? 'public'
      : this.reflector.getAllAndOverride<AuthSchemeName | undefined>(AUTH_SCHEME_KEY, targets);
    byHandler.set(handler, requirement);
    return requirement;
  }

  /** After the HTTP server has closed, so that requests still in flight authenticate normally. */
  onApplicationShutdown(): void {
    for (const name of Object.values(this.strategyNames)) passport.unuse(name);
  }
}
