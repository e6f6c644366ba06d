import request from 'supertest';
import { bearer } from './test-credentials';

/**
 * JWT requests to any family route of a running test app, for the suites of families that
 * point at each other and so write to several families in one test. Ids are URL-encoded (real
 * ids hold spaces).
 */
export function jwtRequests(url: () => string) {
  const route = (path: string, id?: string) => (id === undefined ? `/${path}` : `/${path}/${encodeURIComponent(id)}`);
  return {
    create: (path: string, body: unknown, id?: string) =>
      request(url())
        .post(route(path, id))
        .set('Authorization', bearer())
        .send(body as object),
    update: (path: string, body: unknown, id?: string) =>
      request(url())
        .put(route(path, id))
        .set('Authorization', bearer())
        .send(body as object),
    read: (path: string, id?: string, query?: unknown) => {
      const call = request(url()).get(route(path, id)).set('Authorization', bearer());
      return query === undefined ? call : call.send(query as object);
    },
    remove: (path: string, id?: string, query?: unknown) => {
      const call = request(url()).delete(route(path, id)).set('Authorization', bearer());
      return query === undefined ? call : call.send(query as object);
    },
    /** The stored record, which must exist. */
    stored: async (path: string, id: string) => {
      const response = await request(url()).get(route(path, id)).set('Authorization', bearer());
      if (response.status !== 200) throw new Error(`GET ${route(path, id)} answered ${response.status}: ${response.text}`);
      return response.body[0] as Record<string, unknown>;
    },
    /** Creates records in order, failing loudly unless each answers 201. */
    seed: async (records: [path: string, body: Record<string, unknown>][]) => {
      for (const [path, body] of records) {
        const response = await request(url()).post(route(path)).set('Authorization', bearer()).send(body);
        if (response.status !== 201) throw new Error(`seeding ${path} answered ${response.status}: ${response.text}`);
      }
    },
  };
}

export type OpenApiSchema = Record<string, any>;

/**
 * Reads the OpenAPI document the way a client generator would: follows `$ref`, and the
 * single-element `allOf` wrappers that carry sibling keys (readOnly, description) next to a ref.
 */
export class OpenApiReader {
  constructor(readonly document: OpenApiSchema) {}

  static async fetch(url: string): Promise<OpenApiReader> {
    const response = await request(url).get('/api/doc/swagger.json');
    if (response.status !== 200) throw new Error(`/api/doc/swagger.json answered ${response.status}`);
    return new OpenApiReader(response.body);
  }

  resolve(schema: OpenApiSchema | undefined): OpenApiSchema {
    if (!schema) return {};
    if (typeof schema.$ref === 'string') {
      const { $ref, ...rest } = schema;
      const target = $ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: OpenApiSchema, key: string) => node?.[key], this.document);
      return { ...this.resolve(target), ...rest };
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
      const { allOf, ...rest } = schema;
      return { ...this.resolve(allOf[0]), ...rest };
    }
    return schema;
  }

  /** The schema of one record in the request body of `method path` (not the batch form). */
  body(path: string, method: 'post' | 'put'): OpenApiSchema {
    const operation = this.document.paths?.[path]?.[method];
    if (!operation) throw new Error(`no ${method} ${path} in the OpenAPI document`);
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    const choices: OpenApiSchema[] = schema?.oneOf ?? schema?.anyOf ?? [schema];
    const one = choices.map((choice) => this.resolve(choice)).find((choice) => choice.type !== 'array');
    if (!one) throw new Error(`no single-record body for ${method} ${path}`);
    return one;
  }

  /** A property at a dotted path below `schema`, through nested objects and list items. */
  property(schema: OpenApiSchema, dotted: string): OpenApiSchema {
    let node = this.resolve(schema);
    for (const name of dotted.split('.')) {
      if (node.type === 'array' && node.items) node = this.resolve(node.items);
      const next = node.properties?.[name];
      if (!next) throw new Error(`no property ${name} of ${dotted} in ${JSON.stringify(node)}`);
      node = this.resolve(next);
    }
    return node;
  }

  /** The schema of the items of a list property (or of the list form of a one-or-list property). */
  items(schema: OpenApiSchema): OpenApiSchema {
    const resolved = this.resolve(schema);
    if (resolved.items) return this.resolve(resolved.items);
    const list = [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]
      .map((choice: OpenApiSchema) => this.resolve(choice))
      .find((choice) => choice.type === 'array');
    if (!list) throw new Error(`not a list: ${JSON.stringify(resolved)}`);
    return this.resolve(list.items);
  }

  /** Route paths (with and without `{id}`) and the methods each serves. */
  methods(path: string): string[] {
    return Object.keys(this.document.paths?.[path] ?? {}).sort();
  }
}
