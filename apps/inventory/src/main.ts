import 'reflect-metadata';
import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/load-config';
import { nestLogLevels } from './logger-levels';
import { exitGracefullyOnSignals } from './graceful-shutdown';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
  const app = await NestFactory.create(AppModule.register(config), createHttpAdapter(config), {
    bodyParser: false,
    // Colour codes only for a terminal: logs that go to files or collectors stay plain text.
    logger: new ConsoleLogger({ logLevels: nestLogLevels(config.logLevel), colors: process.stdout.isTTY === true }),
  });
  configureApp(app);
  exitGracefullyOnSignals(app);
  await app.listen(config.port, config.host);
}

void main();
