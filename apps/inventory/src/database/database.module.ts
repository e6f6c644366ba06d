import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { bootstrapDatabase } from './bootstrap';
import { BOOTSTRAP_RESULT, BootstrapResult } from './bootstrap-result';
import { dataSourceOptions } from './data-source-options';

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Opens the database, migrates and seeds it before anything else starts, closes it last. */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => new DataSource(dataSourceOptions(config.database)).initialize(),
    },
    {
      provide: BOOTSTRAP_RESULT,
      inject: [DataSource, APP_CONFIG],
      useFactory: (dataSource: DataSource, config: AppConfig): Promise<BootstrapResult> => bootstrapDatabase(dataSource, config),
    },
    DatabaseLifecycle,
  ],
  exports: [DataSource, BOOTSTRAP_RESULT],
})
export class DatabaseModule {}
