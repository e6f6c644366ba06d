import { QUERY_LIMITS } from '../core/query/query-limits';

type OpenApiSchema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const READ_QUERY_COMPONENT = 'Query';
export const DELETE_QUERY_COMPONENT = 'Query.Delete';

/**
 * The query language (docs/query-language.md) as OpenAPI components, for the `q` parameter of
 * GET and DELETE. The parser stays the authority (it also enforces caps a schema cannot say,
 * such as the number of leaf conditions); this tells clients and Swagger UI the shape.
 */
export function queryComponents(): Record<string, OpenApiSchema> {
  const path = {
    type: 'string',
    minLength: 1,
    description: 'dotted field path; `id` is the record id; a path through a list matches any element',
  };
  const operand = (expr: OpenApiSchema): OpenApiSchema => ({
    type: 'object',
    required: ['target', 'expr'],
    additionalProperties: false,
    properties: { target: ref('Query.Path'), expr },
  });
  const clauses = {
    oneOf: [
      { type: 'array', items: ref('Query.Clause') },
      { type: 'object', additionalProperties: ref('Query.Clause') },
    ],
  };
  const where = { description: 'which records: a clause', allOf: [ref('Query.Clause')] };
  const order = {
    type: 'array',
    maxItems: QUERY_LIMITS.orderTerms,
    items: ref('Query.Order'),
    description: 'sort keys, first one first; arrival order without it',
  };
  const limit = { description: 'zero-based, both ends inclusive', allOf: [ref('Query.Limit')] };
  return {
    [READ_QUERY_COMPONENT]: {
      type: 'object',
      additionalProperties: false,
      example: BY_FIELD,
      properties: {
        select: {
          description: 'paths to return (plus id); exact: ["a", "a.b"] returns a whole',
          oneOf: [{ type: 'string' }, { type: 'array', maxItems: QUERY_LIMITS.selectPaths, uniqueItems: true, items: { type: 'string' } }],
        },
        where,
        order,
        limit,
      },
    },
    [DELETE_QUERY_COMPONENT]: { type: 'object', additionalProperties: false, example: BY_FIELD, properties: { where, order, limit } },
    'Query.Path': path,
    'Query.Comparison': operand({ description: 'any JSON value; a string also matches a number or boolean with that text' }),
    'Query.Pattern': operand({ type: 'string', maxLength: QUERY_LIMITS.patternLength }),
    'Query.In': operand({ type: 'array', maxItems: QUERY_LIMITS.inValues, items: { description: 'any JSON value' } }),
    'Query.Exists': { type: 'object', required: ['target'], additionalProperties: false, properties: { target: ref('Query.Path') } },
    'Query.Clause': {
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      description: 'several keys in one clause are ANDed',
      properties: {
        equals: ref('Query.Comparison'),
        lt: ref('Query.Comparison'),
        lte: ref('Query.Comparison'),
        gt: ref('Query.Comparison'),
        gte: ref('Query.Comparison'),
        reg_exp: ref('Query.Pattern'),
        wildcard: ref('Query.Pattern'),
        in: ref('Query.In'),
        exists: ref('Query.Exists'),
        and: clauses,
        or: clauses,
        not: ref('Query.Clause'),
      },
    },
    'Query.Order': {
      type: 'object',
      required: ['target'],
      additionalProperties: false,
      properties: { target: ref('Query.Path'), mode: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
    },
    'Query.Limit': {
      type: 'object',
      additionalProperties: false,
      properties: { from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } },
    },
  };
}

/**
 * What Swagger UI's "Try it out" starts `q` from, as the components' `example`: Swagger UI reads
 * neither the media type's `examples` for a parameter nor (OpenAPI forbids them beside `content`)
 * the parameter's, and without an example it pre-fills a sample of every operator at once (a 400).
 */
const BY_FIELD = { where: { equals: { target: 'id', expr: 'example-id' } } };

/** Examples of `q` for clients and documentation viewers; the first is also the components' example. */
export function queryExamples(reading: boolean): Record<string, { summary: string; value: unknown }> {
  const examples: Record<string, { summary: string; value: unknown }> = {
    byField: { summary: 'records whose field equals a value', value: BY_FIELD },
    newestFirst: { summary: 'the first ten, newest first', value: { order: [{ target: 'id', mode: 'desc' }], limit: { from: 0, to: 9 } } },
  };
  if (reading) examples.select = { summary: 'only some fields (id always comes back)', value: { select: ['id', 'description'] } };
  return examples;
}
