import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram';

describe('SeriesHistogram', () => {
  const BOUNDS = [0.001, 0.01, 0.1, 1];
  const OBSERVED: [string, number][] = [
    ['GET', 0.0005],
    ['GET', 0.001],
    ['GET', 0.05],
    ['POST', 3],
    ['GET', 0.7],
  ];

  it("writes the same text as prom-client's Histogram for the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const histogram = new SeriesHistogram('answer_seconds', 'Answer time', BOUNDS, ours);
    const reference = new Histogram({
      name: 'answer_seconds',
      help: 'Answer time',
      labelNames: ['method'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    for (const [method, seconds] of OBSERVED) {
      histogram.series({ method }).observe(seconds);
      reference.observe({ method }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('hands out one series per label set, and reset empties them all', async () => {
    const registry = new Registry();
    const histogram = new SeriesHistogram('answer_seconds', 'Answer time', BOUNDS, registry);
    expect(histogram.series({ method: 'GET' })).toBe(histogram.series({ method: 'GET' }));
    histogram.series({ method: 'GET' }).observe(0.5);
    registry.resetMetrics();
    expect(await registry.metrics()).toContain('answer_seconds_count{method="GET"} 0');
  });
});
