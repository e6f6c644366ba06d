import { STATUS_CODES } from 'node:http';

export const ENVELOPE_COMPONENT = 'Envelope';

/** The envelope of docs/responses.md as a component: every write and every error answers an array of them. */
export function envelopeComponents(): Record<string, Record<string, unknown>> {
  return {
    [ENVELOPE_COMPONENT]: {
      type: 'object',
      required: ['status', 'code', 'error', 'message'],
      properties: {
        status: { type: 'string', description: 'reason phrase of `code`', example: 'Created' },
        code: { type: 'integer', example: 201 },
        error: { type: 'boolean', example: false },
        message: {
          description: 'a sentence, or for a validation failure an object from dotted path to problem',
          oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
        },
      },
    },
  };
}

/** A response whose body is an array of envelopes, with an example when the code and message are known. */
export function envelopes(description: string, code?: number, message?: string, status?: string) {
  const schema = { type: 'array', items: { $ref: `#/components/schemas/${ENVELOPE_COMPONENT}` } };
  const example = code === undefined ? undefined : [{ status: status ?? STATUS_CODES[code], code, error: code >= 400, message }];
  return { description, content: { 'application/json': { schema, ...(example ? { example } : {}) } } };
}

const ERROR_WHEN: Record<number, [string, unknown]> = {
  400: ['malformed body or query, forbidden key, too deep, past a query cap', 'unknown operator "near" in where'],
  401: ['missing or bad credentials (WWW-Authenticate says which scheme)', 'Authentication failed'],
  404: ['nothing matched', 'No record matches the request'],
  406: ['validation failed: the message maps dotted paths to problems', { 'parameters.0.type': 'required' }],
  413: ['body larger than INVENTORY_BODY_LIMIT', 'Request body is larger than 16mb'],
  415: ['the body is not JSON', 'Content-Type must be application/json'],
  422: ['the store refused a record', 'The store could not accept the record'],
  429: [
    'too many failed authentications from this address (or, with Basic, for this user): retry after Retry-After seconds',
    'Too many failed authentication attempts; retry in 42 s',
  ],
  503: ['the database does not answer', 'Service unavailable: the database does not answer'],
};

/** The contract's error answers of an operation, each an envelope array. */
export function errors(...codes: number[]): Record<string, unknown> {
  return Object.fromEntries(
    codes.map((code) => {
      const [when, message] = ERROR_WHEN[code];
      const answer: Record<string, unknown> = envelopes(when, code);
      (answer.content as Record<string, Record<string, unknown>>)['application/json'].example = [
        { status: STATUS_CODES[code], code, error: true, message },
      ];
      if (code === 429)
        answer.headers = {
          'Retry-After': { description: 'seconds until an attempt is accepted again', schema: { type: 'integer', minimum: 1 } },
        };
      return [String(code), answer];
    }),
  );
}
