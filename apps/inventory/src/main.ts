import './library-paths';
import 'reflect-metadata';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/load-config';
import { nestLogLevels } from './logger-levels';
import { exitGracefullyOnSignals } from './graceful-shutdown';
import { waitForDatabase } from './database/wait-for-database';
import { assertCanListen, listen } from './startup/listen';
import { exitOnStartFailure } from './startup/start-error';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
  // Colour codes only for a terminal: logs that go to files or collectors stay plain text.
  const logger = new ConsoleLogger({ logLevels: nestLogLevels(config.logLevel), colors: process.stdout.isTTY === true });
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
  configureApp(app);
  exitGracefullyOnSignals(app);
  await listen(app, config);
}

main().catch(exitOnStartFailure);
