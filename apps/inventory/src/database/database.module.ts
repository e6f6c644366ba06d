import { Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { bootstrapDatabase } from './bootstrap';
import { BOOTSTRAP_RESULT, BootstrapResult } from './bootstrap-result';
import { dataSourceOptions } from './data-source-options';
import { WalCheckpointer } from './wal-checkpointer';

@Injectable()
class DatabaseLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private checkpointer?: WalCheckpointer;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** After the migrations and the demo data: the worker's connection opens a file that is set up. */
  onApplicationBootstrap(): void {
    const { database } = this.config;
    if (database.type !== 'sqlite' || database.path === ':memory:') return;
    this.checkpointer = WalCheckpointer.start(database.path, (error) =>
      new Logger('Database').error(`WAL checkpoint worker stopped; the service's connection checkpoints alone: ${error.message}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.checkpointer?.stop();
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
