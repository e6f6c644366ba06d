import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { FamilyDefinition } from '../service/family-definition';
import { patchName, schemaComponents } from './schema-document';

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
 * or a list), the scheme of its auth, and the `{id}` parameter only on the route that has it.
 */
export function documentFamilies(document: OpenAPIObject, families: readonly FamilyDefinition[]): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  const byIndex = new Map(families.map((family) => [family.index, family]));
  for (const family of families) {
    const rootName = family.schema.name;
    Object.assign(document.components.schemas, schemaComponents(family.schema, rootName, { referenceTarget: (index) => byIndex.get(index) }));
    const createBody = oneOrList(rootName);
    const updateBody = oneOrList(patchName(rootName));
    const security = [{ [family.auth === 'jwt' ? 'bearer' : 'basic']: [] }];
    for (const [route, hasId] of [[`/${family.path}`, false], [`/${family.path}/{id}`, true]] as const) {
      const operations = document.paths[route] ?? {};
      for (const [method, operation] of Object.entries(operations) as [string, DocumentedOperation][]) {
        if (method === 'post') operation.requestBody = createBody;
        if (method === 'put') operation.requestBody = updateBody;
        operation.security = security;
        operation.parameters = (operation.parameters ?? []).filter((parameter) => hasId || parameter.name !== 'id');
        for (const parameter of operation.parameters) if (parameter.name === 'id') parameter.required = true;
      }
    }
  }
  return document;
}

/** A write body: one record or a batch of them. */
function oneOrList(componentName: string) {
  const reference = { $ref: `#/components/schemas/${componentName}` };
  return { required: false, content: { 'application/json': { schema: { oneOf: [reference, { type: 'array', items: reference }] } } } };
}

interface DocumentedOperation {
  requestBody?: unknown;
  security?: unknown;
  parameters?: { name?: string; required?: boolean }[];
}
