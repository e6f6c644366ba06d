import { ReadResult } from '../service/record.service';
import { StoredRow } from '../store/record-selection';
import { readAnswer } from './record-answer';

const row = (n: number): StoredRow => ({ seq: n, id: `r${n}`, doc: `{"id":"r${n}"}` });
const rows = (from: number, count: number) => Array.from({ length: count }, (_, k) => row(from + k));

async function* pages(...list: StoredRow[][]): AsyncIterator<StoredRow[]> {
  for (const page of list) yield page;
}

async function chunksOf(result: ReadResult): Promise<string[]> {
  const answer = await readAnswer(result);
  if (typeof answer.body === 'string') return [answer.body];
  const chunks: string[] = [];
  for await (const chunk of answer.body as AsyncIterable<string>) chunks.push(chunk);
  return chunks;
}

describe('readAnswer', () => {
  it('one page: one JSON array, not streamed', async () => {
    expect(await chunksOf({ first: rows(1, 2), rest: pages() })).toEqual(['[{"id":"r1"},{"id":"r2"}]']);
  });

  it('several pages: streamed in chunks of at most 100 rows that join into the whole array, in order', async () => {
    const first = rows(1, 1000);
    const later = [rows(1001, 1000), rows(2001, 250)];
    const chunks = await chunksOf({ first, rest: pages(...later) });
    const all = [first, ...later].flat();
    expect(JSON.parse(chunks.join(''))).toEqual(all.map((r) => JSON.parse(r.doc)));
    // The first page goes whole (it was read before answering); later ones in chunks of 100 rows.
    expect(chunks.slice(1, -1).every((chunk) => chunk.split('},{').length <= 100)).toBe(true);
    expect(chunks).toHaveLength(1 + 10 + 3 + 1);
  });

  it('records read joined: their text in one JSON array, not streamed', async () => {
    const answer = await readAnswer({ joined: '{"id":"r1"},{"id":"r2"}' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('[{"id":"r1"},{"id":"r2"}]');
  });

  it('applies the projection to every row', async () => {
    const chunks = await chunksOf({ first: rows(1, 1), rest: pages(rows(2, 1)), project: (doc) => doc.replace('"r', '"p') });
    expect(chunks.join('')).toBe('[{"id":"p1"},{"id":"p2"}]');
  });
});
