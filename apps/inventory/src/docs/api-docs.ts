import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { documentFamilies, envelopes, errors, registeredFamilies } from '@inventory/crud';

/** Swagger UI at /api/doc (the original's path) and the OpenAPI document, generated from the code. */
export function setupApiDocs(app: INestApplication): void {
  const generated = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Inventory Service')
      .setDescription(
        'Events, network link types, the agent catalog and the other families of the platform: create, read (JSON query in `q` or the body), update (deep merge), delete. Writes and errors answer arrays of envelopes.',
      )
      .setVersion('1')
      .addBearerAuth()
      .addBasicAuth()
      .build(),
    { operationIdFactory: operationId },
  );
  const document = documentServiceRoutes(documentFamilies(generated, registeredFamilies(app)));
  SwaggerModule.setup('api/doc', app, document, { jsonDocumentUrl: 'api/doc/swagger.json', yamlDocumentUrl: 'api/doc/swagger.yaml' });
}

/** `HealthController.live` → `healthLive`; a method named after its controller is just that name (`health`). */
function operationId(controllerKey: string, methodKey: string): string {
  const controller = controllerKey.replace(/Controller$/, '');
  const prefix = controller.charAt(0).toLowerCase() + controller.slice(1);
  return methodKey.toLowerCase() === prefix.toLowerCase() ? prefix : `${prefix}${methodKey.charAt(0).toUpperCase()}${methodKey.slice(1)}`;
}

const METRICS_EXAMPLE = 'inventory_http_requests_total{family="/exec-env",method="GET",status="200"} 42\n';

const STATUS = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
};

/**
 * The routes that are not families: public ones say so (`security: []`, else a client would
 * think the document-wide default applies), and each answer gets its schema.
 */
function documentServiceRoutes(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as {
      security?: unknown;
      operationId?: string;
      responses?: Record<string, unknown>;
    }[]) {
      if (typeof operation !== 'object' || !operation.operationId) continue;
      operation.security ??= [];
      if (operation.operationId.startsWith('health')) {
        operation.responses = {
          200: { description: 'ok', content: { 'application/json': { schema: STATUS, example: { status: 'ok' } } } },
          ...errors(503),
        };
      }
    }
  }
  const token = document.paths['/auth/token']?.post;
  if (token) {
    token.responses = {
      201: {
        description: 'a JWT for the Bearer families',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['access_token', 'token_type', 'expires_in'],
              properties: {
                access_token: { type: 'string' },
                token_type: { type: 'string', enum: ['Bearer'] },
                expires_in: { type: 'integer', description: 'seconds' },
              },
            },
          },
        },
      },
      401: envelopes('missing or bad Basic credentials', 401, 'Authentication failed'),
      ...errors(429),
    };
  }
  const metrics = document.paths['/metrics']?.get;
  if (metrics) {
    metrics.responses = {
      200: {
        description: "Prometheus's text exposition format",
        content: { 'text/plain': { schema: { type: 'string' }, example: METRICS_EXAMPLE } },
      },
    };
  }
  return document;
}
