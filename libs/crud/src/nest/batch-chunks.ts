import type { WriteResult } from '../service/record.service';
import { sliceSentBody } from '../core/body/sent-texts';

/** Records of a batch validated and stored per step; other requests are served between steps. */
export const BATCH_CHUNK = 1000;

/**
 * Writes a large batch a chunk at a time, yielding to the event loop between chunks: one pass
 * over 100,000 records (validation, then one synchronous SQLite transaction) held every other
 * request, /health included, for seconds (issue 11). Items of a batch are independent
 * (docs/responses.md), so the answer is the one a single pass gives: one outcome per item in
 * request order, and an id repeated in a later chunk meets the stored first ("Id already found").
 * A path id with a list is refused by the first chunk, as it is by one pass.
 */
export function writeInChunks(
  body: unknown,
  write: (part: unknown) => Promise<WriteResult>,
  chunk: number = BATCH_CHUNK,
): Promise<WriteResult> {
  // Not async itself: the single create of the hot path pays no extra promise.
  if (!Array.isArray(body) || body.length <= chunk) return write(body);
  return writeChunked(body, write, chunk);
}

async function writeChunked(body: unknown[], write: (part: unknown) => Promise<WriteResult>, chunk: number): Promise<WriteResult> {
  const outcomes: WriteResult['outcomes'] = [];
  let operation: WriteResult['operation'] | undefined;
  for (let start = 0; start < body.length; start += chunk) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const result = await write(sliceSentBody(body, start, start + chunk));
    operation = result.operation;
    for (const outcome of result.outcomes) outcomes.push(outcome);
  }
  return { operation: operation!, outcomes };
}
