import type { NextFunction, Request, Response } from 'express';
import { HttpAnswer } from './http-answer';
import { errorEnvelope } from './envelope';

export interface BodyReaderOptions {
  limitBytes: number;
  /** Runs on every parsed body; throws an error with `message` to refuse it (400). */
  inspect: (body: unknown) => void;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * Reads and parses every request body, whatever the method: the query language travels in GET
 * and DELETE bodies. Answers 413 past the limit, 415 for a body that is not JSON, 400 for JSON
 * that does not parse or that `inspect` refuses. An empty body leaves `req.body` undefined.
 */
export function bodyReader(options: BodyReaderOptions) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (!chunked && !(declaredLength > 0)) {
      request.body = undefined;
      return next();
    }
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim();
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      return refuse(response, request, 415, `Content-Type must be application/json, not "${mediaType || 'none'}"`);
    }
    if (declaredLength > options.limitBytes) {
      return refuse(response, request, 413, `body is larger than ${options.limitBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let refused = false;
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      received += chunk.length;
      if (received > options.limitBytes) {
        refused = true;
        refuse(response, request, 413, `body is larger than ${options.limitBytes} bytes`);
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', (error) => {
      if (!refused) next(error);
      refused = true;
    });
    request.on('end', () => {
      if (refused) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim().length === 0) {
        request.body = undefined;
        return next();
      }
      try {
        request.body = JSON.parse(text);
      } catch {
        return refuse(response, request, 400, 'body is not valid JSON');
      }
      try {
        options.inspect(request.body);
      } catch (error) {
        return refuse(response, request, 400, (error as Error).message);
      }
      next();
    });
  };
}

/** Answers at once; the rest of an over-long body is drained so the connection can be reused. */
function refuse(response: Response, request: Request, status: number, message: string): void {
  request.resume();
  void HttpAnswer.json(status, errorEnvelope(status, message), status === 413 ? { Connection: 'close' } : {}).writeTo(response);
}
