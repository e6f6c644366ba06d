import { HttpAnswer } from '@inventory/http';
import { answerStatus } from '../core/outcome/write-outcome';
import { PagedRead, ReadResult, WriteResult } from '../service/record.service';
import { StoredRow } from '../store/record-selection';

/**
 * What the record handlers answer, built in one place for every family. Writes become the
 * envelope array under the contract's status rule; reads become the JSON array of records,
 * streamed page by page when they span more than one.
 *
 * Handlers call these directly rather than through a Nest interceptor: on Node 20 each
 * interceptor costs two `AsyncResource.bind` per request (7.6 µs each, measured), which took a
 * bare Nest app on Fastify from 60k to 12k req/s (README, design notes).
 */
export function writeAnswer({ operation, outcomes }: WriteResult): HttpAnswer {
  const status = answerStatus(operation, outcomes);
  if (status === 204) return new HttpAnswer(204, undefined);
  return HttpAnswer.json(
    status,
    outcomes.map((outcome) => outcome.toEnvelope()),
  );
}

export async function readAnswer(result: ReadResult): Promise<HttpAnswer> {
  if ('joined' in result) return new HttpAnswer(200, `[${result.joined}]`);
  const render = (rows: StoredRow[]) => rows.map((row) => (result.project ? result.project(row.doc) : row.doc)).join(',');
  const second = await result.rest.next();
  if (second.done) return new HttpAnswer(200, `[${render(result.first)}]`);
  return new HttpAnswer(200, stream(render, result, second.value));
}

async function* stream(render: (rows: StoredRow[]) => string, result: PagedRead, second: StoredRow[]): AsyncIterable<string> {
  yield `[${render(result.first)}`;
  for (let page: IteratorResult<StoredRow[]> = { done: false, value: second }; !page.done; page = await result.rest.next()) {
    for (let start = 0; start < page.value.length; start += STREAM_CHUNK_ROWS) {
      yield `,${render(page.value.slice(start, start + STREAM_CHUNK_ROWS))}`;
    }
  }
  yield ']';
}

/**
 * Rows per chunk of a streamed answer: ~30 kB of text. A whole page (1,000 rows, ~300 kB) is a
 * large object to V8, which only a full collection frees once it outlives a scavenge, and a
 * streamed read of 1M records must keep the RSS under 300 MB (W5).
 */
const STREAM_CHUNK_ROWS = 100;
