import { INestApplication } from '@nestjs/common';
import { assertSafeBody } from '@inventory/crud';
import { InventoryHttpAdapter } from '@inventory/http';
import { AppConfig } from './config/app-config';
import { setupApiDocs } from './docs/api-docs';

/**
 * The HTTP layer and everything about the app that is not a provider: body reading (with its
 * limit, 413 and 415) and docs. main.ts and the tests both call these, so tests run the real
 * thing. Signals are main.ts's business (graceful-shutdown.ts).
 */
export function createHttpAdapter(config: AppConfig): InventoryHttpAdapter {
  return new InventoryHttpAdapter({ limitBytes: config.bodyLimitBytes, inspect: assertSafeBody });
}

export function configureApp(app: INestApplication): INestApplication {
  setupApiDocs(app);
  return app;
}
