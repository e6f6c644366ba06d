import { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { RecordBodyInspector } from '@inventory/crud';
import { InventoryHttpAdapter, ResponseObserver } from '@inventory/http';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { setupApiDocs } from './docs/api-docs';
import { accessLogObserver } from './observability/access-log';
import { InventoryMetrics } from './observability/inventory-metrics';

/**
 * The HTTP layer and everything about the app that is not a provider: body reading (with its
 * limit, 413 and 415, and nesting refused while the bytes arrive), the request timeout and
 * connection cap, security headers, CORS, request ids, the access log and metrics, and docs.
 * main.ts and the tests both call these, so tests run the real thing.
 * Signals are main.ts's business (graceful-shutdown.ts).
 */
export function createHttpAdapter(config: AppConfig): InventoryHttpAdapter {
  return new InventoryHttpAdapter({
    limitBytes: config.bodyLimitBytes,
    inspector: () => new RecordBodyInspector(),
    requestTimeoutMs: config.requestTimeoutMs,
    maxConnections: config.maxConnections,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
  });
}

export interface ConfigureOptions {
  /** The root logger; the access log (INVENTORY_ACCESS_LOG) writes to it. Without it, there is none. */
  log?: Logger;
}

/** Before `init`/`listen`: the response hooks must exist before Fastify builds its routes. */
export function configureApp(app: INestApplication, options: ConfigureOptions = {}): INestApplication {
  const config = app.get<AppConfig>(APP_CONFIG);
  const observers: ResponseObserver[] = [];
  if (config.accessLog && options.log) observers.push(accessLogObserver(options.log));
  if (config.metrics) observers.push(app.get(InventoryMetrics).observe);
  (app.getHttpAdapter() as InventoryHttpAdapter).observeResponses(observers);
  setupApiDocs(app);
  return app;
}
