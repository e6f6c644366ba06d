import { INestApplication } from '@nestjs/common';
import { assertSafeBody, JsonDepthScanner } from '@inventory/crud';
import { InventoryHttpAdapter } from '@inventory/http';
import { AppConfig } from './config/app-config';
import { setupApiDocs } from './docs/api-docs';

/**
 * The HTTP layer and everything about the app that is not a provider: body reading (with its
 * limit, 413 and 415, and nesting refused while the bytes arrive), the request timeout and
 * connection cap, and docs. main.ts and the tests both call these, so tests run the real thing.
 * Signals are main.ts's business (graceful-shutdown.ts).
 */
export function createHttpAdapter(config: AppConfig): InventoryHttpAdapter {
  return new InventoryHttpAdapter({
    limitBytes: config.bodyLimitBytes,
    scanner: () => new JsonDepthScanner(),
    inspect: assertSafeBody,
    requestTimeoutMs: config.requestTimeoutMs,
    maxConnections: config.maxConnections,
  });
}

export function configureApp(app: INestApplication): INestApplication {
  setupApiDocs(app);
  return app;
}
