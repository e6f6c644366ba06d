import { INestApplication } from '@nestjs/common';
import { assertSafeBody } from '@inventory/crud';
import { bodyReader } from '@inventory/http';
import type { Express } from 'express';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { setupApiDocs } from './docs/api-docs';

/**
 * Everything about the app that is not a provider: body reading (with its limit, 413 and 415)
 * and docs. main.ts and the tests both call it, so tests run the real thing. Signals are
 * main.ts's business (graceful-shutdown.ts).
 */
export function configureApp(app: INestApplication): INestApplication {
  const config = app.get<AppConfig>(APP_CONFIG);
  const express = app.getHttpAdapter().getInstance() as Express;
  express.disable('x-powered-by');
  express.set('query parser', 'simple');
  app.use(bodyReader({ limitBytes: config.bodyLimitBytes, inspect: assertSafeBody }));
  setupApiDocs(app);
  return app;
}
