import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HttpAnswer } from '@inventory/http';
import { map, Observable } from 'rxjs';
import { answerStatus } from '../core/outcome/write-outcome';
import { ReadResult, WriteResult } from '../service/record.service';
import { StoredRow } from '../store/record-selection';

export class WriteAnswer {
  constructor(readonly result: WriteResult) {}
}

export class ReadAnswer {
  constructor(readonly result: ReadResult) {}
}

/**
 * Turns what the handlers return into the answer on the wire. Writes become the envelope array
 * under the contract's status rule; reads become the JSON array of records, streamed page by
 * page when they span more than one. Only these two types are touched, by `instanceof`.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value) => {
        if (value instanceof WriteAnswer) return writeAnswer(value.result);
        if (value instanceof ReadAnswer) return readAnswer(value.result);
        return value;
      }),
    );
  }
}

function writeAnswer({ operation, outcomes }: WriteResult): HttpAnswer | Promise<HttpAnswer> {
  const status = answerStatus(operation, outcomes);
  if (status === 204) return new HttpAnswer(204, undefined);
  return HttpAnswer.json(status, outcomes.map((outcome) => outcome.toEnvelope()));
}

async function readAnswer(result: ReadResult): Promise<HttpAnswer> {
  const render = (rows: StoredRow[]) =>
    rows.map((row) => (result.project ? result.project(row.doc) : row.doc)).join(',');
  const second = await result.rest.next();
  if (second.done) return new HttpAnswer(200, `[${render(result.first)}]`);
  return new HttpAnswer(200, stream(render, result, second.value));
}

async function* stream(render: (rows: StoredRow[]) => string, result: ReadResult, second: StoredRow[]): AsyncIterable<string> {
  yield `[${render(result.first)},${render(second)}`;
  for (let page = await result.rest.next(); !page.done; page = await result.rest.next()) {
    yield `,${render(page.value)}`;
  }
  yield ']';
}
