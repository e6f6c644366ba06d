// First: V8 settings before anything else allocates (see the module).
import './startup/v8-settings';
import './library-paths';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger as PinoLogger } from 'pino';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/load-config';
import { createRootLogger, flushLogsSync } from './observability/root-logger';
import { PinoNestLogger } from './observability/pino-nest-logger';
import { exitGracefullyOnSignals } from './graceful-shutdown';
import { waitForDatabase } from './database/wait-for-database';
import { assertCanListen, listen } from './startup/listen';
import { exitOnStartFailure } from './startup/start-error';

let rootLogger: PinoLogger | undefined;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
  // JSON lines, or readable ones for a terminal (LOG_FORMAT); colour codes only for a terminal.
  rootLogger = createRootLogger(config, { isTTY: process.stdout.isTTY === true });
  const logger = new PinoNestLogger(rootLogger);
  // Already before Nest exists: the wait for the database logs through it.
  Logger.overrideLogger(logger);
  await assertCanListen(config);
  await waitForDatabase(config);
  const app = await NestFactory.create(AppModule.register(config), createHttpAdapter(config), {
    bodyParser: false,
    // Rethrow instead of process.abort(), so a failed start ends through exitOnStartFailure.
    abortOnError: false,
    logger,
  });
  configureApp(app, { log: rootLogger });
  exitGracefullyOnSignals(app);
  await listen(app, config);
}

main().catch((error: unknown) => {
  // The lines logged so far come before the one line that says why the start stopped.
  flushLogsSync(rootLogger);
  exitOnStartFailure(error);
});
