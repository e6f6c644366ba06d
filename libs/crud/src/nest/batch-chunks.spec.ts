import { WriteOutcome } from '../core/outcome/write-outcome';
import type { WriteResult } from '../service/record.service';
import { writeInChunks } from './batch-chunks';

/** A write that records the parts it was given and answers one outcome per item, naming it. */
function recordingWrite(parts: unknown[]) {
  return async (part: unknown): Promise<WriteResult> => {
    parts.push(part);
    const items = Array.isArray(part) ? part : [part];
    return { operation: 'create', outcomes: items.map((item) => new WriteOutcome(201, String(item))) };
  };
}

describe('writeInChunks', () => {
  it('passes a small batch, one record or no body through as they are', async () => {
    for (const body of [undefined, null, { id: 'a' }, [], ['a', 'b']]) {
      const parts: unknown[] = [];
      await writeInChunks(body, recordingWrite(parts), 2);
      expect(parts).toEqual([body]);
    }
  });

  it('writes a large batch in chunks and answers one outcome per item, in request order', async () => {
    const parts: unknown[] = [];
    const body = Array.from({ length: 7 }, (_, i) => `r${i}`);
    const result = await writeInChunks(body, recordingWrite(parts), 3);
    expect(parts).toEqual([['r0', 'r1', 'r2'], ['r3', 'r4', 'r5'], ['r6']]);
    expect(result.operation).toBe('create');
    expect(result.outcomes.map((outcome) => outcome.message)).toEqual(body);
  });

  it('lets other work of the event loop run between chunks', async () => {
    const events: string[] = [];
    const write = async (part: unknown): Promise<WriteResult> => {
      events.push(`chunk ${(part as string[])[0]}`);
      setImmediate(() => events.push('other request'));
      return { operation: 'update', outcomes: [] };
    };
    await writeInChunks(['a', 'b', 'c'], write, 1);
    expect(events.slice(0, 4)).toEqual(['chunk a', 'other request', 'chunk b', 'other request']);
  });
});
