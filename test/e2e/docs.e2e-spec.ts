import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';

describe('API documentation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('serves Swagger UI at /api/doc without credentials', async () => {
    const response = await request(t.url).get('/api/doc').redirects(1);
    expect(response.status).toBe(200);
    expect(response.text).toContain('swagger');
  });

  it('documents every family route, with and without {id}, and nothing for the 405 catch-alls', async () => {
    const document = (await request(t.url).get('/api/doc/swagger.json')).body;
    expect(document.openapi).toMatch(/^3\./);
    for (const path of [
      '/event',
      '/event/{id}',
      '/type/network-link',
      '/type/network-link/{id}',
      '/catalog/agent',
      '/catalog/agent/{id}',
    ]) {
      expect(Object.keys(document.paths[path]).sort()).toEqual(['delete', 'get', 'post', 'put']);
    }
    expect(Object.keys(document.paths['/health'])).toEqual(['get']);
    expect(document.paths['/type/network-link'].post.security).toEqual([{ basic: [] }]);
    expect(document.paths['/event/{id}'].get.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/event'].get.parameters.map((parameter: { name: string }) => parameter.name)).not.toContain('id');
    expect(document.paths['/event/{id}'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
    const operationIds = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations as Record<string, { operationId: string }>).map((operation) => operation.operationId),
    );
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('derives request schemas from the validation schemas', async () => {
    const { components, paths } = (await request(t.url).get('/api/doc/swagger.json')).body;
    expect(components.schemas.NetworkLinkType.required).toEqual(['name']);
    expect(components.schemas.NetworkLinkType.additionalProperties).toBe(true);
    expect(components.schemas['AgentCatalogEntry.Action'].properties.status.enum).toEqual(['started', 'stopped', 'unknown']);
    expect(components.schemas['AgentCatalogEntry.Parameter'].required.sort()).toEqual(['config', 'id', 'type']);
    expect(components.schemas.AgentCatalogEntry.properties.actions.items).toEqual({
      $ref: '#/components/schemas/AgentCatalogEntry.Action',
    });
    expect(paths['/catalog/agent'].post.requestBody.content['application/json'].schema.oneOf[0]).toEqual({
      $ref: '#/components/schemas/AgentCatalogEntry',
    });
  });

  it('is a valid OpenAPI 3 document', async () => {
    const document = (await request(t.url).get('/api/doc/swagger.json')).body;
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it('names nested components per family, so classes of the same name do not overwrite each other', async () => {
    const { schemas } = (await request(t.url).get('/api/doc/swagger.json')).body.components;
    const parameterComponents = Object.keys(schemas).filter((name) => /\.Parameter$/.test(name));
    expect(parameterComponents).toEqual(
      expect.arrayContaining(['AgentCatalogEntry.Parameter', 'EbpfProgramCatalogEntry.Parameter', 'AlgorithmCatalogEntry.Parameter']),
    );
    expect(schemas['AgentCatalogEntry.Parameter'].required).toContain('config');
    expect(schemas['AlgorithmCatalogEntry.Parameter'].required ?? []).not.toContain('config');
  });

  it('documents a partial body for PUT: nothing required at any depth, null allowed to remove', async () => {
    const { components, paths } = (await request(t.url).get('/api/doc/swagger.json')).body;
    expect(paths['/exec-env'].put.requestBody.content['application/json'].schema.oneOf[0]).toEqual({
      $ref: '#/components/schemas/ExecEnv.Patch',
    });
    expect(paths['/exec-env'].post.requestBody.content['application/json'].schema.oneOf[0]).toEqual({
      $ref: '#/components/schemas/ExecEnv',
    });
    const patches = Object.entries(components.schemas as Record<string, { required?: string[] }>).filter(([name]) =>
      name.endsWith('.Patch'),
    );
    expect(patches.length).toBeGreaterThanOrEqual(14);
    for (const [name, schema] of patches) expect([name, schema.required]).toEqual([name, undefined]);
    expect(components.schemas.ExecEnv.required).toEqual(expect.arrayContaining(['hostname', 'type_id', 'enabled']));
    expect(components.schemas['ExecEnv.Patch'].properties.lcp.allOf).toEqual([{ $ref: '#/components/schemas/ExecEnv.Lcp.Patch' }]);
    expect(components.schemas['ExecEnv.Patch'].properties.description.nullable).toBe(true);
    expect(components.schemas.ExecEnv.properties.description.nullable).toBeUndefined();
  });

  it('gives every constraint its JSON-schema type, format, enum and bounds', async () => {
    const { schemas } = (await request(t.url).get('/api/doc/swagger.json')).body.components;
    const lcp = schemas['ExecEnv.Lcp'].properties;
    expect(lcp.port).toMatchObject({ type: 'integer', minimum: 1 });
    expect(lcp.https).toMatchObject({ type: 'boolean', default: false });
    expect(schemas['ExecEnv.Lcp'].required).toEqual(['port']);
    expect(schemas.DataRecord.properties.timestamp_event).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas.AgentInstance.properties.status).toMatchObject({ enum: ['started', 'stopped', 'unknown'], default: 'unknown' });
    expect(schemas.AgentInstance.required ?? []).not.toContain('status');
    expect(schemas['AgentInstance.OperationAction'].properties.output_format.enum).toEqual(['plain', 'lines', 'json']);
    for (const [name, schema] of Object.entries(schemas as Record<string, { properties?: Record<string, object> }>)) {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (field === 'example' || field === 'values' || field === 'value') continue;
        expect([name, field, Object.keys(property).length > 0]).toEqual([name, field, true]);
      }
    }
  });

  it('shows references, read-only, server-set and write-only fields', async () => {
    const { schemas } = (await request(t.url).get('/api/doc/swagger.json')).body.components;
    expect(schemas.ExecEnv.properties.type_id).toMatchObject({ 'x-references': 'exec-env-type' });
    expect(schemas.ExecEnv.properties.type_id.description).toContain('Execution environment type (`/type/exec-env`)');
    expect(schemas.ExecEnv.properties.lcp).toMatchObject({ readOnly: true });
    expect(schemas['ExecEnv.Lcp'].properties.started).toMatchObject({ readOnly: true });
    expect(schemas['ExecEnv.Lcp'].properties.started.description).toContain('Set by the service');
    expect(schemas.Connection.properties.exec_env_id).toMatchObject({ readOnly: true, 'x-references': 'exec-env' });
    expect(schemas.Connection.properties.network_link_id).toMatchObject({ readOnly: true, 'x-references': 'network-link' });
    expect(schemas.Pipeline.properties.agent_instance_ids).toMatchObject({ 'x-references': 'agent-instance' });
    expect(schemas.EbpfProgramInstance.properties.parameters).toMatchObject({ writeOnly: true });
    expect(schemas.EbpfProgramInstance.properties.ebpf_program_catalog_id.readOnly).toBeUndefined();
  });

  it('documents the query of GET and DELETE as a JSON parameter q with a schema and examples, never as a request body', async () => {
    const { paths, components } = (await request(t.url).get('/api/doc/swagger.json')).body;
    for (const route of ['/event', '/event/{id}', '/instance/agent']) {
      for (const method of ['get', 'delete']) {
        const operation = paths[route][method];
        expect([route, method, operation.requestBody]).toEqual([route, method, undefined]);
        const q = operation.parameters.find((parameter: { name: string }) => parameter.name === 'q');
        expect(q).toMatchObject({ in: 'query', required: false });
        expect(q.content['application/json'].schema).toEqual({
          $ref: `#/components/schemas/${method === 'get' ? 'Query' : 'Query.Delete'}`,
        });
        expect(Object.keys(q.content['application/json'].examples).length).toBeGreaterThan(0);
      }
    }
    // Swagger UI's "Try it out" starts q from the schema's example (it reads no parameter examples).
    expect(components.schemas.Query.example).toEqual(
      paths['/event'].get.parameters.find((p: { name: string }) => p.name === 'q').content['application/json'].examples.byField.value,
    );
    expect(components.schemas['Query.Delete'].example).toEqual(components.schemas.Query.example);
    expect(components.schemas.Query.properties.select.oneOf[1].maxItems).toBe(100);
    expect(components.schemas['Query.Clause'].properties.in).toEqual({ $ref: '#/components/schemas/Query.In' });
    expect(components.schemas['Query.Delete'].properties.select).toBeUndefined();
  });

  it("gives every family operation its response schemas and the contract's 4xx, each an envelope array", async () => {
    const { paths } = (await request(t.url).get('/api/doc/swagger.json')).body;
    const envelopeArray = { type: 'array', items: { $ref: '#/components/schemas/Envelope' } };
    const read = paths['/exec-env'].get.responses;
    expect(read['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/ExecEnv' } });
    expect(Object.keys(read).sort()).toEqual(['200', '400', '401', '404', '429', '503']);
    expect(read['429'].headers['Retry-After'].schema.type).toBe('integer');
    const create = paths['/exec-env'].post.responses;
    expect(create['201'].content['application/json'].schema).toEqual(envelopeArray);
    expect(create['201'].content['application/json'].example[0].message).toBe('Execution environment with id=example-id correctly created');
    expect(Object.keys(create)).toEqual(expect.arrayContaining(['201', '204', '207', '400', '401', '406', '413', '415', '422']));
    expect(create['406'].content['application/json'].schema).toEqual(envelopeArray);
    expect(Object.keys(paths['/exec-env/{id}'].put.responses)).toEqual(expect.arrayContaining(['200', '304', '406']));
    expect(paths['/exec-env'].delete.responses['205'].content['application/json'].example[0]).toMatchObject({
      status: 'Reset Content',
      code: 200,
    });
  });

  it('names operations after their family, and marks public routes with security: []', async () => {
    const { paths } = (await request(t.url).get('/api/doc/swagger.json')).body;
    expect(paths['/exec-env'].post.operationId).toBe('createExecEnv');
    expect(paths['/type/network-link/{id}'].get.operationId).toBe('readNetworkLinkTypeById');
    expect(paths['/health'].get).toMatchObject({ operationId: 'health', security: [] });
    expect(paths['/health'].get.responses['200'].content['application/json'].schema.properties.status.enum).toEqual(['ok']);
    expect(paths['/auth/token'].post.security).toEqual([{ basic: [] }]);
    expect(paths['/auth/token'].post.responses['201'].content['application/json'].schema.required).toContain('access_token');
    const ids = Object.values(paths).flatMap((operations) =>
      Object.values(operations as Record<string, { operationId: string }>).map((operation) => operation.operationId),
    );
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*$/);
  });

  it('gives every array its items (Parameter.values holds any values)', async () => {
    const { schemas } = (await request(t.url).get('/api/doc/swagger.json')).body.components;
    expect(schemas['AgentCatalogEntry.Parameter'].properties.values).toEqual({ type: 'array', items: {} });
    const arraysWithoutItems: string[] = [];
    const visit = (value: unknown, where: string) => {
      if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${where}.${index}`));
      else if (value && typeof value === 'object') {
        const schema = value as Record<string, unknown>;
        if (schema.type === 'array' && !('items' in schema)) arraysWithoutItems.push(where);
        for (const [key, child] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') visit(child, `${where}.${key}`);
      }
    };
    visit(schemas, 'schemas');
    expect(arraysWithoutItems).toEqual([]);
  });
});
