import { Inject, Injectable } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import { AUTH_OPTIONS, AuthOptions } from './auth-options';

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** Issues HS256 tokens; a service that only verifies an outside issuer's keys cannot. */
@Injectable()
export class TokenService {
  constructor(@Inject(AUTH_OPTIONS) private readonly options: AuthOptions) {}

  get canIssue(): boolean {
    return !this.options.jwt.publicKey;
  }

  issue(subject: string): IssuedToken {
    const { jwt } = this.options;
    const now = Math.floor(Date.now() / 1000);
    const accessToken = sign({ sub: subject, iat: now, nbf: now }, jwt.secret, {
      algorithm: 'HS256',
      expiresIn: jwt.ttlSeconds,
      ...(jwt.issuer ? { issuer: jwt.issuer } : {}),
      ...(jwt.audience ? { audience: jwt.audience } : {}),
    });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: jwt.ttlSeconds };
  }
}
