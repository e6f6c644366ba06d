import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { FamilyDefinition } from '../service/family-definition';
import { schemaComponents } from './schema-document';

/** The families whose generated controllers are registered in the app. */
export function registeredFamilies(app: INestApplication): FamilyDefinition[] {
  const families: FamilyDefinition[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const controller of module.controllers.values()) {
      const family = (controller.metatype as { family?: FamilyDefinition } | null)?.family;
      if (family) families.push(family);
    }
  }
  return families;
}

/**
 * Completes the generated document for each family: request bodies from its schema (one record
 * or a list), and the route documented both without and with its optional `{id}`.
 */
export function documentFamilies(document: OpenAPIObject, families: readonly FamilyDefinition[]): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  for (const family of families) {
    const rootName = family.schema.name;
    Object.assign(document.components.schemas, schemaComponents(family.schema, rootName));
    const withId = `/${family.path}/{id}`;
    const operations = document.paths[withId];
    if (!operations) continue;
    const body = {
      required: false,
      content: {
        'application/json': {
          schema: { oneOf: [{ $ref: `#/components/schemas/${rootName}` }, { type: 'array', items: { $ref: `#/components/schemas/${rootName}` } }] },
        },
      },
    };
    for (const method of ['post', 'put'] as const) {
      if (operations[method]) operations[method]!.requestBody = body;
    }
    const security = [{ [family.auth === 'jwt' ? 'bearer' : 'basic']: [] }];
    for (const operation of Object.values(operations)) (operation as { security?: unknown }).security = security;
    const withoutId: Record<string, unknown> = {};
    for (const [method, operation] of Object.entries(operations)) {
      const { parameters = [], operationId, ...rest } = operation as { parameters?: { name?: string }[]; operationId?: string };
      withoutId[method] = { ...rest, operationId: `${operationId}All`, parameters: parameters.filter((parameter) => parameter.name !== 'id') };
      for (const parameter of parameters) if (parameter.name === 'id') Object.assign(parameter, { required: true });
    }
    document.paths = { [`/${family.path}`]: withoutId as never, ...document.paths };
  }
  return document;
}
