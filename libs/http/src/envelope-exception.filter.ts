import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasUnreadBody } from './body-reader';
import { errorEnvelope, EnvelopeMessageValue } from './envelope';
import { noteFailure } from './failure-kind';
import { HttpAnswer } from './http-answer';
import { lingerBeforeClose } from './lingering-close';
import { isPublicError } from './public-error';
import { storeErrorStatus } from './store-error-status';

/**
 * The one error path: anything thrown while handling a request becomes `[envelope]` with its
 * contract status. Unexpected errors answer 500 with a reference that is in the log, and never
 * their text, SQL or stack. The reference is the request id (`X-Request-Id`), so a client's
 * report, the answer's header and every log line of the request name the same thing.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest | undefined>();
    // A client that left (or was timed out with a 408 already written) is no server failure.
    if ((exception as { clientGone?: unknown })?.clientGone === true) return;
    if (reply.sent) {
      noteFailure(request, 'after-answer');
      this.logger.error({ msg: 'failure after the answer started', reqId: request?.id, error: describe(exception) });
      reply.raw.destroy();
      return;
    }
    const answer = this.answerFor(exception, request);
    // Refused before its body was read (no credentials, too deep, too large): reading the rest
    // only to keep the connection would cost what the refusal saved.
    if (request?.raw && hasUnreadBody(request.raw)) {
      lingerBeforeClose(request.raw.socket);
      new HttpAnswer(answer.status, answer.body, { ...answer.headers, Connection: 'close' }).writeTo(reply);
      return;
    }
    answer.writeTo(reply);
  }

  private answerFor(exception: unknown, request: FastifyRequest | undefined): HttpAnswer {
    if (isPublicError(exception)) {
      // The store's own error (libs/crud), known by name: this library does not depend on that one.
      if ((exception as unknown as Error).name === 'StoreUnavailableError') noteFailure(request, 'store-unavailable');
      return answer(exception.httpStatus, exception.publicMessage ?? exception.message, exception.headers);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return answer(status, status >= 500 ? 'Internal error' : exception.message);
    }
    if (isFastifyClientError(exception)) return answer(exception.statusCode, exception.message);
    const known = storeErrorStatus(exception);
    if (known) {
      if (known.status === 503) noteFailure(request, 'store-busy');
      else if (known.status === 422) noteFailure(request, 'store-refused');
      return answer(known.status, known.message);
    }
    // Only outside a request (no id) is a reference made up.
    const reference = request?.id ?? randomUUID();
    noteFailure(request, 'unexpected');
    this.logger.error({ msg: 'unexpected failure', reqId: reference, ref: reference, error: describe(exception) });
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
