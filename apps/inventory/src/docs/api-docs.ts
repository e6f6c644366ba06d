import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { documentFamilies, registeredFamilies } from '@inventory/crud';

/** Swagger UI at /api/doc (the original's path) and the OpenAPI document, generated from the code. */
export function setupApiDocs(app: INestApplication): void {
  const generated = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Inventory Service')
      .setDescription('Events, network link types and the agent catalog: create, read (JSON query), update (deep merge), delete.')
      .setVersion('1')
      .addBearerAuth()
      .addBasicAuth()
      .build(),
  );
  const document = documentFamilies(generated, registeredFamilies(app));
  SwaggerModule.setup('api/doc', app, document, { jsonDocumentUrl: 'api/doc/swagger.json', yamlDocumentUrl: 'api/doc/swagger.yaml' });
}
