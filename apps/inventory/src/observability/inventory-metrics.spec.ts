import type { FastifyReply, FastifyRequest } from 'fastify';
import { FailureKind, noteFailure } from '@inventory/http';
import { InventoryMetrics } from './inventory-metrics';

function answered(
  metrics: InventoryMetrics,
  method: string,
  url: string | undefined,
  status: number,
  ms: number,
  failure?: FailureKind,
): void {
  const request = { method, routeOptions: { url } } as unknown as FastifyRequest;
  if (failure) noteFailure(request, failure);
  metrics.observe(request, { statusCode: status, elapsedTime: ms } as unknown as FastifyReply);
}

describe('InventoryMetrics', () => {
  it('counts answers by family (the route without /:id), method and status', async () => {
    const metrics = new InventoryMetrics();
    answered(metrics, 'GET', '/exec-env/:id', 200, 1);
    answered(metrics, 'GET', '/exec-env', 200, 1);
    answered(metrics, 'PUT', '/exec-env/:id', 406, 1);
    answered(metrics, 'GET', undefined, 404, 1);
    const text = await metrics.text();
    expect(text).toContain('inventory_http_requests_total{family="/exec-env",method="GET",status="200"} 2');
    expect(text).toContain('inventory_http_requests_total{family="/exec-env",method="PUT",status="406"} 1');
    expect(text).toContain('inventory_http_requests_total{family="unmatched",method="GET",status="404"} 1');
  });

  it('keeps counting across scrapes: answers are handed to the counter when it is scraped, once each', async () => {
    const metrics = new InventoryMetrics();
    answered(metrics, 'GET', '/event/:id', 200, 1);
    answered(metrics, 'GET', '/event/:id', 200, 1);
    expect(await metrics.text()).toContain('inventory_http_requests_total{family="/event",method="GET",status="200"} 2');
    expect(await metrics.text()).toContain('inventory_http_requests_total{family="/event",method="GET",status="200"} 2');
    answered(metrics, 'GET', '/event/:id', 200, 1);
    const text = await metrics.text();
    expect(text).toContain('inventory_http_requests_total{family="/event",method="GET",status="200"} 3');
    expect(text).toContain('inventory_http_request_duration_seconds_count{family="/event",method="GET"} 3');
  });

  it('puts each duration in its latency bucket, in seconds', async () => {
    const metrics = new InventoryMetrics();
    answered(metrics, 'GET', '/event/:id', 200, 0.3);
    answered(metrics, 'GET', '/event/:id', 200, 7);
    answered(metrics, 'GET', '/event/:id', 404, 30);
    const text = await metrics.text();
    const bucket = (le: string) =>
      new RegExp(
        `inventory_http_request_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",family="/event",method="GET"\\} (\\d+)`,
      ).exec(text)?.[1];
    expect([bucket('0.0005'), bucket('0.005'), bucket('0.01'), bucket('0.025'), bucket('+Inf')]).toEqual(['1', '1', '2', '2', '3']);
    expect(text).toMatch(/inventory_http_request_duration_seconds_sum\{family="\/event",method="GET"\} 0\.0373/);
  });

  it('counts store failures by kind and unexpected ones apart, each series present from the start', async () => {
    const metrics = new InventoryMetrics();
    expect(await metrics.text()).toContain('inventory_store_errors_total{kind="unavailable"} 0');
    answered(metrics, 'GET', '/event', 503, 1, 'store-unavailable');
    answered(metrics, 'GET', '/event', 503, 1, 'store-unavailable');
    answered(metrics, 'POST', '/event', 503, 1, 'store-busy');
    answered(metrics, 'POST', '/event', 422, 1, 'store-refused');
    answered(metrics, 'GET', '/event', 500, 1, 'unexpected');
    answered(metrics, 'GET', '/event', 200, 1, 'after-answer');
    const text = await metrics.text();
    expect(text).toContain('inventory_store_errors_total{kind="unavailable"} 2');
    expect(text).toContain('inventory_store_errors_total{kind="busy"} 1');
    expect(text).toContain('inventory_store_errors_total{kind="refused"} 1');
    expect(text).toContain('inventory_unexpected_errors_total 2');
  });

  it('includes the process metrics, event-loop lag among them', async () => {
    const text = await new InventoryMetrics().text();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});
