import 'reflect-metadata';
import { ConsoleLogger, Logger, LogLevel } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/config-error';
import { loadConfig } from '../config/load-config';
import { bootstrapDatabase } from '../database/bootstrap';
import { BootstrapResult } from '../database/bootstrap-result';
import { dataSourceOptions } from '../database/data-source-options';
import { nestLogLevels } from '../logger-levels';

/** The database of the service, opened, migrated and bootstrapped exactly as the service does it. */
export interface CliDatabase {
  config: AppConfig;
  dataSource: DataSource;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

/** Nest's console logger, but every level goes to stderr: a CLI's stdout is its answer. */
class StderrLogger extends ConsoleLogger {
  protected printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

/** A failure the CLI reports as its one line, without a stack. */
export class CliError extends Error {}

/**
 * Reads the config from the environment (same variables and defaults as the service), opens the
 * database and runs the start-up bootstrap (migrations, persisted JWT secret, admin user).
 * `env` overrides are applied on top of `process.env`.
 */
export async function openCliDatabase(env: Record<string, string | undefined> = {}): Promise<CliDatabase> {
  const config = loadConfig({ ...process.env, ...env });
  Logger.overrideLogger(new StderrLogger({ logLevels: nestLogLevels(config.logLevel) }));
  const dataSource = new DataSource(dataSourceOptions(config.database));
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new CliError(`cannot open the database: ${(error as Error).message}`);
  }
  try {
    const bootstrap = await bootstrapDatabase(dataSource, config);
    return { config, dataSource, bootstrap, close: () => dataSource.destroy() };
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * Runs a CLI's main: an error becomes one line on stderr and exit code 1. The database is closed
 * by `main` itself; the exit code is set rather than forcing exit so pending output is flushed.
 */
export function runCli(name: string, main: () => Promise<void>): void {
  main().then(
    () => {
      process.exitCode = process.exitCode ?? 0;
    },
    (error: unknown) => {
      const message =
        error instanceof ConfigError ? `invalid configuration: ${error.message}` : error instanceof Error ? error.message : String(error);
      process.stderr.write(`${name}: ${message.split('\n')[0]}\n`);
      process.exitCode = 1;
    },
  );
}

/** Runs `work` with the database open, and closes it whatever happens. */
export async function withCliDatabase<T>(env: Record<string, string | undefined>, work: (database: CliDatabase) => Promise<T>): Promise<T> {
  const database = await openCliDatabase(env);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}
