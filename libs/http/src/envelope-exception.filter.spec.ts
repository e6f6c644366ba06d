import { ArgumentsHost, Logger, NotFoundException } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { AuthenticationFailedError } from './authentication-failed.error';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';
import { MethodNotAllowedError } from './method-not-allowed.error';

/** A response that records what the filter writes: status, headers and the exact bytes. */
class RecordedResponse extends EventEmitter {
  headersSent = false;
  status = 0;
  headers: Record<string, unknown> = {};
  body = '';
  destroyed = false;

  writeHead(status: number, headers: Record<string, unknown>) {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
  }

  end(body?: string) {
    this.body = body ?? '';
  }

  destroy() {
    this.destroyed = true;
  }
}

function answer(exception: unknown): RecordedResponse {
  const response = new RecordedResponse();
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
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
    expect(answer(new AuthenticationFailedError('Basic realm="inventory"')).headers['WWW-Authenticate']).toBe('Basic realm="inventory"');
    const notAllowed = answer(new MethodNotAllowedError('PATCH', ['GET', 'PUT']));
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.Allow).toBe('GET, PUT');
  });

  it("keeps a Nest HttpException's status and safe message", () => {
    const response = answer(new NotFoundException('Cannot GET /nope'));
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)[0].message).toBe('Cannot GET /nope');
  });

  it('cuts the connection when the answer had already started', () => {
    const response = new RecordedResponse();
    response.headersSent = true;
    const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
    new EnvelopeExceptionFilter().catch(new Error('mid-stream'), host);
    expect(response.destroyed).toBe(true);
    expect(response.body).toBe('');
  });
});
