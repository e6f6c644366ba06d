import { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { AppModule } from '../../apps/inventory/src/app.module';
import { configureApp, createHttpAdapter } from '../../apps/inventory/src/app.setup';
import { loadConfig } from '../../apps/inventory/src/config/load-config';
import { PinoNestLogger } from '../../apps/inventory/src/observability/pino-nest-logger';
import { createTestDatabase, DatabaseKind, TestDatabase } from './test-databases';
import { TEST_ADMIN, TEST_JWT_SECRET } from './test-credentials';

export interface TestApp {
  app: INestApplication;
  /** `http://127.0.0.1:PORT`: tests talk real HTTP to a listening server. */
  url: string;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment, as a user would set it. */
  env?: Record<string, string>;
  /** Extra modules, e.g. the test-only family. */
  imports?: Type<unknown>[];
  /** Reuse a database (e.g. to restart on it); by default each app gets a fresh one. */
  database?: TestDatabase;
  /** The root logger, as main.ts builds it: Nest's lines and the access log go to it. Default: Nest's console, errors only. */
  log?: Logger;
}

/** The real AppModule, configured through the same env parsing and configureApp as main.ts. */
export async function createTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(kind));
  const config = loadConfig({
    DATABASE_URL: database.url,
    INVENTORY_JWT_SECRET: TEST_JWT_SECRET,
    INVENTORY_ADMIN_USER: TEST_ADMIN.username,
    INVENTORY_ADMIN_PASSWORD: TEST_ADMIN.password,
    // Suites not about throttling send many wrong credentials from one address; throttle.e2e-spec.ts sets its own.
    INVENTORY_AUTH_FAILURE_LIMIT: '1000000',
    ...options.env,
  });
  const root = AppModule.register(config);
  root.imports = [...(root.imports ?? []), ...(options.imports ?? [])];
  const moduleRef = await Test.createTestingModule({ imports: [root] }).compile();
  const logger = options.log ? new PinoNestLogger(options.log) : ['error' as const];
  const app = moduleRef.createNestApplication(createHttpAdapter(config), { bodyParser: false, logger });
  configureApp(app, { log: options.log });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    database,
    close: async () => {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}
