import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failureOf, FailureKind, ResponseObserver, routeFamily } from '@inventory/http';
import { HistogramSeries, SeriesHistogram } from './series-histogram';

/** From a cached get-by-id (~0.1 ms) to the query budget's 10 s. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const STORE_FAILURES: Partial<Record<FailureKind, string>> = {
  'store-unavailable': 'unavailable',
  'store-busy': 'busy',
  'store-refused': 'refused',
};

/**
 * The series one kind of answer feeds, resolved once. Answers are counted here and handed to
 * prom-client's counter when it is scraped: its `inc` validates and hashes labels on every call.
 */
interface SeriesSet {
  answers: { inc(count: number): void };
  unscraped: number;
  duration: HistogramSeries;
}

/**
 * The service's Prometheus metrics, in a registry of its own (tests run several apps in one
 * process). Fed by `observe`, which the HTTP adapter calls once per answer from Fastify's
 * onResponse: no interceptor, no AsyncResource. Labels are bounded: the family is the route
 * pattern (never the URL), an unmatched path is `unmatched`, methods are the parser's.
 */
export class InventoryMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'inventory_http_requests_total',
    help: 'Answered HTTP requests by family (route without /:id), method and status',
    labelNames: ['family', 'method', 'status'] as const,
    registers: [this.registry],
    collect: () => {
      for (const series of this.seriesSets.values()) {
        if (series.unscraped === 0) continue;
        series.answers.inc(series.unscraped);
        series.unscraped = 0;
      }
    },
  });
  private readonly duration = new SeriesHistogram(
    'inventory_http_request_duration_seconds',
    'Time from routing a request to handing its answer to the socket, by family and method',
    DURATION_BUCKETS,
    this.registry,
  );
  private readonly storeErrors = new Counter({
    name: 'inventory_store_errors_total',
    help: 'Requests failed by the database: unavailable (503, cannot reach it), busy (503, SQLite locked), refused (422)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly unexpectedErrors = new Counter({
    name: 'inventory_unexpected_errors_total',
    help: 'Requests that failed unexpectedly: 500 with a reference, or a failure after the answer had started',
    registers: [this.registry],
  });
  /** Series by method, route and status, resolved once: no label hashing or allocation per request. */
  private readonly seriesSets = new Map<string, SeriesSet>();

  constructor() {
    // Process metrics, event-loop lag (nodejs_eventloop_lag_*) among them.
    collectDefaultMetrics({ register: this.registry });
    // Every kind exists from the start at 0, so that an alert on its rate has a series to read.
    for (const kind of Object.values(STORE_FAILURES)) this.storeErrors.inc({ kind }, 0);
    this.unexpectedErrors.inc(0);
  }

  readonly observe: ResponseObserver = (request: FastifyRequest, reply: FastifyReply) => {
    const series = this.seriesOf(request, reply.statusCode);
    series.unscraped += 1;
    series.duration.observe(reply.elapsedTime / 1000);
    const failure = failureOf(request);
    if (failure === undefined) return;
    const storeKind = STORE_FAILURES[failure];
    if (storeKind !== undefined) this.storeErrors.inc({ kind: storeKind });
    else this.unexpectedErrors.inc();
  };

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  private seriesOf(request: FastifyRequest, status: number): SeriesSet {
    const key = `${request.method} ${request.routeOptions.url ?? ''} ${status}`;
    let series = this.seriesSets.get(key);
    if (series === undefined) {
      const family = routeFamily(request);
      const { method } = request;
      series = {
        answers: this.requests.labels({ family, method, status: String(status) }),
        unscraped: 0,
        duration: this.duration.series({ family, method }),
      };
      this.seriesSets.set(key, series);
    }
    return series;
  }
}
