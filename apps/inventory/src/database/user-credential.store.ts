import { Inject, Injectable } from '@nestjs/common';
import { CredentialStore } from '@inventory/auth';
import { DataSource } from 'typeorm';
import { findPasswordHash } from './users';

@Injectable()
export class UserCredentialStore extends CredentialStore {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {
    super();
  }

  passwordHash(username: string): Promise<string | undefined> {
    return findPasswordHash(this.dataSource, username);
  }
}
