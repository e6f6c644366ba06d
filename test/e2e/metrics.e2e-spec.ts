import { exchange } from '../support/http-exchange';
import { FailingRoutesModule } from '../support/failing-routes';
import { createTestApp, TestApp } from '../support/test-app';
import { basic, bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

/** README "Metrics": Prometheus text at /metrics, public like /health, switched by INVENTORY_METRICS. */

/** The value of one sample line, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(databaseKinds())('metrics (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { imports: [FailingRoutesModule] });
  });
  afterAll(async () => t?.close());

  const scrape = async () => {
    const answer = await exchange(t.url, 'GET', '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.body as string;
  };

  it('counts answers by family, method and status, and times them', async () => {
    const before = await scrape();
    const series = 'inventory_http_requests_total{family="/type/network-link",method="GET",status="200"}';
    const unauthorized = 'inventory_http_requests_total{family="/type/network-link",method="GET",status="401"}';
    for (let i = 0; i < 3; i++) await exchange(t.url, 'GET', '/type/network-link/p2p', { headers: { Authorization: basic() } });
    await exchange(t.url, 'GET', '/type/network-link', { headers: { Authorization: basic() } });
    await exchange(t.url, 'GET', '/type/network-link');
    await exchange(t.url, 'DELETE', '/no/such/route');
    const after = await scrape();
    expect((sample(after, series) ?? 0) - (sample(before, series) ?? 0)).toBe(4);
    expect((sample(after, unauthorized) ?? 0) - (sample(before, unauthorized) ?? 0)).toBe(1);
    expect(sample(after, 'inventory_http_requests_total{family="unmatched",method="DELETE",status="404"}')).toBe(1);
    const timed = 'inventory_http_request_duration_seconds_count{family="/type/network-link",method="GET"}';
    expect((sample(after, timed) ?? 0) - (sample(before, timed) ?? 0)).toBe(5);
  });

  it('counts store failures and unexpected ones', async () => {
    const before = await scrape();
    await exchange(t.url, 'GET', '/test-only/fail/store-unavailable');
    await exchange(t.url, 'GET', '/test-only/fail/store-unavailable');
    await exchange(t.url, 'GET', '/test-only/fail/unexpected');
    const after = await scrape();
    const unavailable = 'inventory_store_errors_total{kind="unavailable"}';
    expect(sample(after, unavailable)! - sample(before, unavailable)!).toBe(2);
    expect(sample(after, 'inventory_unexpected_errors_total')! - sample(before, 'inventory_unexpected_errors_total')!).toBe(1);
    expect(sample(after, 'inventory_store_errors_total{kind="busy"}')).toBe(0);
  });

  it('exposes event-loop lag and the process metrics', async () => {
    const text = await scrape();
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
    ]) {
      expect(sample(text, name)).toBeGreaterThanOrEqual(0);
    }
  });

  it('is public, and documented so (security: [], text/plain)', async () => {
    expect((await exchange(t.url, 'GET', '/metrics', { headers: { Authorization: bearer() } })).status).toBe(200);
    const { body } = await exchange(t.url, 'GET', '/api/doc/swagger.json');
    expect(body.paths['/metrics'].get).toMatchObject({
      security: [],
      responses: { 200: { content: { 'text/plain': expect.any(Object) } } },
    });
  });
});

describe.each(databaseKinds())('metrics off (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { INVENTORY_METRICS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('INVENTORY_METRICS=false: no /metrics, and none in the document', async () => {
    expect((await exchange(t.url, 'GET', '/metrics')).status).toBe(404);
    const { body } = await exchange(t.url, 'GET', '/api/doc/swagger.json');
    expect(body.paths['/metrics']).toBeUndefined();
  });
});
