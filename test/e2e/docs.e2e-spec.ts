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
    expect(components.schemas.Action.properties.status.enum).toEqual(['started', 'stopped', 'unknown']);
    expect(components.schemas.Parameter.required.sort()).toEqual(['config', 'id', 'type']);
    expect(components.schemas.AgentCatalogEntry.properties.actions.items).toEqual({ $ref: '#/components/schemas/Action' });
    expect(paths['/catalog/agent'].post.requestBody.content['application/json'].schema.oneOf[0]).toEqual({
      $ref: '#/components/schemas/AgentCatalogEntry',
    });
  });
});
