import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { errorEnvelope, EnvelopeMessageValue } from './envelope';
import { HttpAnswer } from './http-answer';
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
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) {
      this.logger.error(`failure after the answer started: ${describe(exception)}`);
      reply.raw.destroy();
      return;
    }
    this.answerFor(exception).writeTo(reply);
  }

  private answerFor(exception: unknown): HttpAnswer {
    if (isPublicError(exception)) {
      return answer(exception.httpStatus, exception.publicMessage ?? exception.message, exception.headers);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return answer(status, status >= 500 ? 'Internal error' : exception.message);
    }
    if (isFastifyClientError(exception)) return answer(exception.statusCode, exception.message);
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

/** Fastify's own refusals of a request (e.g. `FST_ERR_BAD_URL`) carry a 4xx and a safe message. */
function isFastifyClientError(exception: unknown): exception is Error & { statusCode: number } {
  if (!(exception instanceof Error)) return false;
  const { code, statusCode } = exception as Error & { code?: unknown; statusCode?: unknown };
  return typeof code === 'string' && code.startsWith('FST_') && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
}

function describe(exception: unknown): string {
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}
