import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthModule } from '@inventory/auth';
import { CrudModule, recordStoreFor } from '@inventory/crud';
import { HttpCoreModule } from '@inventory/http';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { BOOTSTRAP_RESULT, BootstrapResult } from './database/bootstrap-result';
import { DatabaseModule } from './database/database.module';
import { UserCredentialStore } from './database/user-credential.store';
import { FAMILY_MODULES } from './families';
import { AuthTokenController } from './auth-token/auth-token.controller';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './observability/metrics.module';

@Module({})
export class AppModule {
  /** The whole service for one validated config; main.ts and the tests both start it this way. */
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        HttpCoreModule,
        CrudModule.forRoot({
          inject: [DataSource, BOOTSTRAP_RESULT],
          useFactory: (dataSource: DataSource) => recordStoreFor(dataSource),
          queryTimeoutMs: config.queryTimeoutMs,
          querySizeLimit: config.bodyLimitBytes,
        }),
        AuthModule.forRoot({
          credentialStore: UserCredentialStore,
          inject: [APP_CONFIG, BOOTSTRAP_RESULT],
          useFactory: (appConfig: AppConfig, bootstrap: BootstrapResult) => ({
            jwt: {
              secret: bootstrap.jwtSecret,
              publicKey: appConfig.jwt.publicKey,
              issuer: appConfig.jwt.issuer,
              audience: appConfig.jwt.audience,
              ttlSeconds: appConfig.jwt.ttlSeconds,
              prefix: appConfig.jwt.prefix,
            },
            throttle: appConfig.authThrottle,
          }),
        }),
        ...FAMILY_MODULES,
        HealthModule,
        ...(config.metrics ? [MetricsModule] : []),
      ],
      controllers: [AuthTokenController],
    };
  }
}
