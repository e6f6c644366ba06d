import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { FamilyDefinition } from '../service/family-definition';
import { patchName, schemaComponents } from './schema-document';
import { pascalCase } from './record-controller.factory';
import { DELETE_QUERY_COMPONENT, queryComponents, queryExamples, READ_QUERY_COMPONENT } from './query-document';
import { envelopeComponents, envelopes, errors } from './envelope-document';

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
 * or a list; a partial body for PUT), the query as the `q` parameter of GET and DELETE (never a
 * request body: browsers cannot send one with GET, and an empty DELETE body means "everything"),
 * responses with their schemas (records or envelopes) and the contract's 4xx, the scheme of its
 * auth, operationIds named after the family, and the `{id}` parameter only on the route with it.
 */
export function documentFamilies(document: OpenAPIObject, families: readonly FamilyDefinition[]): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  Object.assign(document.components.schemas, queryComponents(), envelopeComponents());
  const byIndex = new Map(families.map((family) => [family.index, family]));
  for (const family of families) {
    const rootName = family.schema.name;
    Object.assign(
      document.components.schemas,
      schemaComponents(family.schema, rootName, { referenceTarget: (index) => byIndex.get(index) }),
    );
    const security = [{ [family.auth === 'jwt' ? 'bearer' : 'basic']: [] }];
    for (const [route, hasId] of [
      [`/${family.path}`, false],
      [`/${family.path}/{id}`, true],
    ] as const) {
      const operations = (document.paths[route] ?? {}) as Record<string, DocumentedOperation>;
      for (const [method, operation] of Object.entries(operations)) {
        const action = ACTIONS[method];
        if (!action) continue;
        operation.operationId = `${action.verb}${pascalCase(family.index)}${hasId ? 'ById' : ''}`;
        operation.security = security;
        operation.parameters = (operation.parameters ?? []).filter(
          (parameter) => parameter.name !== 'q' && (hasId || parameter.name !== 'id'),
        );
        for (const parameter of operation.parameters) if (parameter.name === 'id') parameter.required = true;
        delete operation.requestBody;
        if (action.body) operation.requestBody = oneOrList(action.body === 'create' ? rootName : patchName(rootName));
        if (action.query) operation.parameters.push(queryParameter(action.query === 'read'));
        operation.responses = action.responses(rootName, family.resourceName);
      }
    }
  }
  return document;
}

interface Action {
  verb: string;
  body?: 'create' | 'update';
  query?: 'read' | 'delete';
  responses: (rootName: string, resourceName: string) => Record<string, unknown>;
}

const ACTIONS: Record<string, Action> = {
  post: {
    verb: 'create',
    body: 'create',
    responses: (_root, name) => ({
      201: envelopes(`every item created`, 201, `${name} with id=example-id correctly created`),
      204: { description: 'empty body or empty list: nothing to do' },
      207: envelopes('items answered differently (one envelope each, in request order)'),
      ...errors(400, 401, 406, 413, 415, 422, 429, 503),
    }),
  },
  get: {
    verb: 'read',
    query: 'read',
    responses: (root) => ({
      200: {
        description: 'the matching records, in query order (streamed)',
        content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${root}` } } } },
      },
      ...errors(400, 401, 404, 429, 503),
    }),
  },
  put: {
    verb: 'update',
    body: 'update',
    responses: (_root, name) => ({
      200: envelopes('every item updated (or unchanged)', 200, `${name} with id=example-id correctly updated`),
      204: { description: 'empty body or empty list: nothing to do' },
      207: envelopes('items answered differently (one envelope each, in request order)'),
      304: { description: 'nothing to change (no body)' },
      ...errors(400, 401, 406, 413, 415, 429, 503),
    }),
  },
  delete: {
    verb: 'delete',
    query: 'delete',
    responses: (_root, name) => ({
      205: envelopes(
        'deleted: one envelope per record, with code 200 inside (browsers, Swagger UI among them, drop the body of a 205)',
        200,
        `${name} with id=example-id correctly deleted`,
        'Reset Content',
      ),
      ...errors(400, 401, 404, 429, 503),
    }),
  },
};

function queryParameter(reading: boolean) {
  return {
    name: 'q',
    in: 'query',
    required: false,
    description: reading
      ? 'the query as URL-encoded JSON (a JSON body works too, from clients that can send one with GET)'
      : 'the query as URL-encoded JSON (or a JSON body); without one, every record of the family is deleted',
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${reading ? READ_QUERY_COMPONENT : DELETE_QUERY_COMPONENT}` },
        examples: queryExamples(reading),
      },
    },
  };
}

/** A write body: one record or a batch of them. */
function oneOrList(componentName: string) {
  const reference = { $ref: `#/components/schemas/${componentName}` };
  return { required: false, content: { 'application/json': { schema: { oneOf: [reference, { type: 'array', items: reference }] } } } };
}

interface DocumentedOperation {
  operationId?: string;
  requestBody?: unknown;
  security?: unknown;
  responses?: unknown;
  parameters?: { name?: string; required?: boolean }[];
}
