import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { AuthenticationFailedError } from './authentication-failed.error';
import { errorEnvelope, EnvelopeMessageValue } from './envelope';
import { HttpAnswer } from './http-answer';
import { MethodNotAllowedError } from './method-not-allowed.error';
import { isPublicError } from './public-error';
import { storeErrorStatus } from './store-error-status';

/**
 * The one error path: anything thrown while handling a request becomes `[envelope]` with its
 * contract status. Unexpected errors answer 500 with a reference that is in the log, and never
 * their text, SQL or stack.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) {
      this.logger.error(`failure after the answer started: ${describe(exception)}`);
      response.destroy();
      return;
    }
    void this.answerFor(exception).writeTo(response);
  }

  private answerFor(exception: unknown): HttpAnswer {
    if (isPublicError(exception)) {
      return answer(exception.httpStatus, exception.publicMessage ?? exception.message, headersFor(exception));
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return answer(status, status >= 500 ? 'Internal error' : exception.message);
    }
    const known = storeErrorStatus(exception);
    if (known) return answer(known.status, known.message);
    const reference = randomUUID();
    this.logger.error(`unexpected failure ref=${reference}: ${describe(exception)}`);
    return answer(500, `Internal error (ref ${reference})`);
  }
}

function answer(status: number, message: EnvelopeMessageValue, headers?: Record<string, string>): HttpAnswer {
  return HttpAnswer.json(status, errorEnvelope(status, message), headers);
}

function headersFor(exception: unknown): Record<string, string> | undefined {
  if (exception instanceof AuthenticationFailedError) return { 'WWW-Authenticate': exception.challenge };
  if (exception instanceof MethodNotAllowedError) return { Allow: exception.allowed.join(', ') };
  return undefined;
}

function describe(exception: unknown): string {
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}
