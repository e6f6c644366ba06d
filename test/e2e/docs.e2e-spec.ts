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
    for (const path of ['/event', '/event/{id}', '/type/network-link', '/type/network-link/{id}', '/catalog/agent', '/catalog/agent/{id}']) {
      expect(Object.keys(document.paths[path]).sort()).toEqual(['delete', 'get', 'post', 'put']);
    }
    expect(Object.keys(document.paths['/health'])).toEqual(['get']);
    expect(document.paths['/type/network-link'].post.security).toEqual([{ basic: [] }]);
    expect(document.paths['/event/{id}'].get.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/event'].get.parameters.map((parameter: { name: string }) => parameter.name)).not.toContain('id');
    expect(document.paths['/event/{id}'].get.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    const operationIds = Object.values(document.paths).flatMap((operations) => Object.values(operations as Record<string, { operationId: string }>).map((operation) => operation.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('derives request schemas from the validation schemas', async () => {
    const { components, paths } = (await request(t.url).get('/api/doc/swagger.json')).body;
    expect(components.schemas.NetworkLinkType.required).toEqual(['name']);
    expect(components.schemas.NetworkLinkType.additionalProperties).toBe(true);
    expect(components.schemas['AgentCatalogEntry.Action'].properties.status.enum).toEqual(['started', 'stopped', 'unknown']);
    expect(components.schemas['AgentCatalogEntry.Parameter'].required.sort()).toEqual(['config', 'id', 'type']);
    expect(components.schemas.AgentCatalogEntry.properties.actions.items).toEqual({ $ref: '#/components/schemas/AgentCatalogEntry.Action' });
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
    expect(paths['/exec-env'].put.requestBody.content['application/json'].schema.oneOf[0]).toEqual({ $ref: '#/components/schemas/ExecEnv.Patch' });
    expect(paths['/exec-env'].post.requestBody.content['application/json'].schema.oneOf[0]).toEqual({ $ref: '#/components/schemas/ExecEnv' });
    const patches = Object.entries(components.schemas as Record<string, { required?: string[] }>).filter(([name]) => name.endsWith('.Patch'));
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
});
