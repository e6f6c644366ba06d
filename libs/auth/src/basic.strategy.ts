import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { BasicCredentialsCache } from './basic-credentials.cache';
import { CredentialStore } from './credential-store';
import { DECOY_HASH, verifyPassword } from './password-hash';

export interface BasicPrincipal {
  scheme: 'basic';
  username: string;
}

/** HTTP Basic against the users in the database. Bad credentials return false, never throw. */
@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasicStrategy, 'basic') {
  private readonly cache = new BasicCredentialsCache();

  constructor(private readonly credentials: CredentialStore) {
    super();
  }

  async validate(username: string, password: string): Promise<BasicPrincipal | false> {
    if (this.cache.has(username, password)) return { scheme: 'basic', username };
    const stored = await this.credentials.passwordHash(username);
    const matches = await verifyPassword(password, stored ?? DECOY_HASH);
    if (!stored || !matches) return false;
    this.cache.remember(username, password);
    return { scheme: 'basic', username };
  }
}
