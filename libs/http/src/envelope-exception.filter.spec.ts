import { ArgumentsHost, Logger, NotFoundException } from '@nestjs/common';
import { AuthenticationFailedError } from './authentication-failed.error';
import { BodyRefusedError } from './body-refused.error';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';
import { MethodNotAllowedError } from './method-not-allowed.error';
import { RequestAbortedError } from './request-aborted.error';

/** A Fastify reply that records what the filter sends: status, headers and the exact bytes. */
class RecordedResponse {
  sent = false;
  status = 0;
  sentHeaders: Record<string, unknown> = {};
  body = '';
  destroyed = false;
  readonly raw = { destroy: () => (this.destroyed = true) };

  code(status: number) {
    this.status = status;
    return this;
  }

  header(name: string, value: unknown) {
    this.sentHeaders[name] = value;
    return this;
  }

  headers(headers: Record<string, unknown> = {}) {
    Object.assign(this.sentHeaders, headers);
    return this;
  }

  type(value: string) {
    return this.header('Content-Type', value);
  }

  send(body?: string) {
    this.body = body ?? '';
    this.sent = true;
    return this;
  }
}

function answer(exception: unknown): RecordedResponse {
  const response = new RecordedResponse();
  const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => undefined }) } as unknown as ArgumentsHost;
  new EnvelopeExceptionFilter().catch(exception, host);
  return response;
}

describe('EnvelopeExceptionFilter', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('answers an unexpected error with 500 and a reference, never its text, SQL or stack', () => {
    const error = new Error('SQLITE_ERROR: near "FROM": syntax error in SELECT doc FROM inventory_record');
    const response = answer(error);
    expect(response.status).toBe(500);
    const [envelope] = JSON.parse(response.body);
    expect(envelope).toMatchObject({ status: 'Internal Server Error', code: 500, error: true });
    expect(envelope.message).toMatch(/^Internal error \(ref [0-9a-f-]{36}\)$/);
    expect(response.body).not.toMatch(/SELECT|inventory_record|SQLITE|at .*\.ts/);
  });

  it('uses the request id as the reference of a 500, in the answer and in the log line', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const response = new RecordedResponse();
    const request = { id: 'client-chosen-42', raw: { complete: true, headers: {} } };
    const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }) } as unknown as ArgumentsHost;
    new EnvelopeExceptionFilter().catch(new Error('boom'), host);
    expect(JSON.parse(response.body)[0].message).toBe('Internal error (ref client-chosen-42)');
    expect(logged).toHaveBeenLastCalledWith(
      expect.objectContaining({ reqId: 'client-chosen-42', ref: 'client-chosen-42', msg: 'unexpected failure' }),
    );
  });

  it('maps a duplicate key from either database to 406 "Id already found"', () => {
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', '23505']) {
      const response = answer(Object.assign(new Error('duplicate key value violates unique constraint'), { code }));
      expect(response.status).toBe(406);
      expect(JSON.parse(response.body)).toEqual([{ status: 'Not Acceptable', code: 406, error: true, message: 'Id already found' }]);
    }
  });

  it('maps other store refusals to 422 without the driver text', () => {
    for (const code of ['SQLITE_CONSTRAINT_CHECK', '22021', '23502']) {
      const response = answer(Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code }));
      expect(response.status).toBe(422);
      expect(response.body).not.toContain('UTF8');
    }
  });

  it('sets WWW-Authenticate on 401 and Allow on 405', () => {
    expect(answer(new AuthenticationFailedError('Basic realm="inventory"')).sentHeaders['WWW-Authenticate']).toBe(
      'Basic realm="inventory"',
    );
    const notAllowed = answer(new MethodNotAllowedError('PATCH', ['GET', 'PUT']));
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.sentHeaders.Allow).toBe('GET, PUT');
  });

  it("keeps Fastify's own 4xx refusals (a malformed URL) and nothing else of its errors", () => {
    const badUrl = Object.assign(new Error("'/event/%E0%A4' is not a valid url component"), { code: 'FST_ERR_BAD_URL', statusCode: 400 });
    expect(answer(badUrl).status).toBe(400);
    const internal = Object.assign(new Error('reply already sent'), { code: 'FST_ERR_REP_ALREADY_SENT', statusCode: 500 });
    expect(answer(internal).status).toBe(500);
  });

  it('closes the connection with a 413, whose body was left unread', () => {
    const response = answer(new BodyRefusedError(413, 'body is larger than 10 bytes'));
    expect(response.status).toBe(413);
    expect(response.sentHeaders.Connection).toBe('close');
  });

  it("keeps a Nest HttpException's status and safe message", () => {
    const response = answer(new NotFoundException('Cannot GET /nope'));
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)[0].message).toBe('Cannot GET /nope');
  });

  it('cuts the connection when the answer had already started', () => {
    const response = new RecordedResponse();
    response.sent = true;
    const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => undefined }) } as unknown as ArgumentsHost;
    new EnvelopeExceptionFilter().catch(new Error('mid-stream'), host);
    expect(response.destroyed).toBe(true);
    expect(response.body).toBe('');
  });

  it('closes the connection when it refuses a request whose body was left unread', () => {
    const response = new RecordedResponse();
    const unread = { raw: { complete: false, headers: { 'content-length': '16000000' }, socket: undefined } };
    const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => unread }) } as unknown as ArgumentsHost;
    new EnvelopeExceptionFilter().catch(new AuthenticationFailedError('Bearer realm="inventory"'), host);
    expect(response.status).toBe(401);
    expect(response.sentHeaders).toMatchObject({ Connection: 'close', 'WWW-Authenticate': 'Bearer realm="inventory"' });
  });

  it('keeps the connection when the body was read whole', () => {
    const response = new RecordedResponse();
    const read = { raw: { complete: true, headers: { 'content-length': '10' } } };
    const host = { switchToHttp: () => ({ getResponse: () => response, getRequest: () => read }) } as unknown as ArgumentsHost;
    new EnvelopeExceptionFilter().catch(new BodyRefusedError(400, 'body is not valid JSON'), host);
    expect(response.sentHeaders.Connection).toBeUndefined();
  });

  it('neither answers nor logs a client that left before its body was complete', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockClear();
    const response = answer(new RequestAbortedError());
    expect(response.sent).toBe(false);
    expect(logged).not.toHaveBeenCalled();
  });
});
