import { DynamicModule, Module, ModuleMetadata, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AUTH_OPTIONS, AuthOptions } from './auth-options';
import { AuthSchemeGuard } from './auth-scheme.guard';
import { BasicStrategy } from './basic.strategy';
import { CredentialStore } from './credential-store';
import { JwtStrategy } from './jwt.strategy';
import { TokenService } from './token.service';

export interface AuthModuleOptions extends Pick<ModuleMetadata, 'imports'> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's FactoryProvider passes its injected values as any
  useFactory: (...deps: any[]) => AuthOptions | Promise<AuthOptions>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's injection tokens
  inject?: any[];
  /** The app's implementation of where Basic users live. */
  credentialStore: Type<CredentialStore>;
}

/** Registers both strategies and the global fail-closed guard; exports token issuing. */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      imports: [PassportModule, ...(options.imports ?? [])],
      providers: [
        { provide: AUTH_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: CredentialStore, useClass: options.credentialStore },
        JwtStrategy,
        BasicStrategy,
        TokenService,
        { provide: APP_GUARD, useClass: AuthSchemeGuard },
      ],
      exports: [TokenService, AUTH_OPTIONS],
    };
  }
}
