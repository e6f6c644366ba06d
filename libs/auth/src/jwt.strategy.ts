import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createPublicKey, createSecretKey, KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Strategy as PassportJwtStrategy } from 'passport-jwt';
import { AUTH_OPTIONS, AuthOptions, CLOCK_SKEW_SECONDS } from './auth-options';

export interface JwtPrincipal {
  scheme: 'jwt';
  subject?: string;
  claims: Record<string, unknown>;
}

/**
 * Bearer tokens. Only the configured algorithm is accepted (HS256 with the secret, or the public
 * key's RS256/ES256), so `alg: none` and algorithm switching fail inside jsonwebtoken; `exp` is
 * required and `iat` may not lie in the future beyond the skew.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(PassportJwtStrategy, 'jwt') {
  /** The token a request carries under an accepted scheme word, or null. */
  readonly tokenOf: (request: FastifyRequest) => string | null;

  constructor(@Inject(AUTH_OPTIONS) options: AuthOptions) {
    const { jwt } = options;
    const tokenOf = tokenExtractor(jwt.prefix);
    // A prepared KeyObject: given a string, jsonwebtoken tries to parse it as a public key on
    // every verification (measured: ~640 µs against ~25 µs per token).
    const key: KeyObject = jwt.publicKey ? createPublicKey(jwt.publicKey) : createSecretKey(Buffer.from(jwt.secret));
    super({
      jwtFromRequest: tokenOf,
      secretOrKey: key as unknown as string,
      algorithms: [jwt.publicKey ? publicKeyAlgorithm(key) : 'HS256'],
      issuer: jwt.issuer,
      audience: jwt.audience,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: CLOCK_SKEW_SECONDS },
    });
    this.tokenOf = tokenOf;
  }

  validate(claims: Record<string, unknown>): JwtPrincipal | false {
    if (typeof claims.exp !== 'number') return false;
    if (typeof claims.iat === 'number' && claims.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) return false;
    return { scheme: 'jwt', subject: typeof claims.sub === 'string' ? claims.sub : undefined, claims };
  }
}

function tokenExtractor(prefix: string | undefined): (request: FastifyRequest) => string | null {
  const schemes = new Set(['bearer', ...(prefix ? [prefix.toLowerCase()] : [])]);
  return (request) => {
    const header = request.headers.authorization;
    if (typeof header !== 'string') return null;
    const [scheme, token, ...rest] = header.trim().split(/\s+/);
    if (rest.length > 0 || !token || !schemes.has(scheme.toLowerCase())) return null;
    return token;
  };
}

function publicKeyAlgorithm(key: KeyObject): 'RS256' | 'ES256' {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ec') return 'ES256';
  throw new Error(`INVENTORY_JWT_PUBLIC_KEY: unsupported key type ${type}; use an RSA or P-256 EC key`);
}
