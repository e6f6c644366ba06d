import { createTestApp, TestApp } from '../support/test-app';
import { databaseKinds } from '../support/test-databases';
import { bearer } from '../support/test-credentials';
import { sendJson } from '../support/json-http';
import { RESPONSIVE_MS } from '../support/responsiveness';

const RECORDS = 100_000;

/**
 * Issue 11: one batch of 100,000 records made /health wait 4.4 s. A batch is written a chunk at
 * a time, with other requests served in between; the answer is the one a single pass gives.
 */
describe.each(databaseKinds())('a batch of 100,000 records (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('is created whole while /health keeps answering within a second', async () => {
    const authorization = bearer();
    const batch = Array.from({ length: RECORDS }, (_, n) => ({
      id: `batch-${n}`,
      source: `10.0.${n % 250}.1`,
      timestamp: new Date(Date.UTC(2026, 10, 21) + n * 1000).toISOString(),
      bytes: n,
    }));
    // Two ids repeated at the far ends of the batch, in different chunks: the second is refused.
    batch.push({ ...batch[0], bytes: -1 });
    const healthWaits: number[] = [];
    let writing = true;
    const polling = (async () => {
      while (writing) {
        const started = Date.now();
        const answer = await sendJson(t.url, 'GET', '/health');
        healthWaits.push(answer.status === 200 ? Date.now() - started : Infinity);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const created = await sendJson(t.url, 'POST', '/event', { body: batch, authorization });
    writing = false;
    await polling;

    expect(created.status).toBe(207);
    expect(created.body).toHaveLength(RECORDS + 1);
    expect(created.body[RECORDS - 1]).toEqual({
      status: 'Created',
      code: 201,
      error: false,
      message: `Event with id=batch-${RECORDS - 1} correctly created`,
    });
    expect(created.body[RECORDS]).toEqual({ status: 'Not Acceptable', code: 406, error: true, message: 'Id already found' });
    expect(created.body.filter((envelope: { code: number }) => envelope.code === 201)).toHaveLength(RECORDS);
    expect(healthWaits.length).toBeGreaterThan(3);
    expect(Math.max(...healthWaits)).toBeLessThan(RESPONSIVE_MS);

    const last = await sendJson(t.url, 'GET', `/event/batch-${RECORDS - 1}`, { authorization });
    expect(last.body).toEqual([batch[RECORDS - 1]]);
    const first = await sendJson(t.url, 'GET', '/event/batch-0', { authorization });
    expect(first.body).toEqual([batch[0]]);
  }, 180_000);
});
