import { describe, expect, it } from 'vitest';
import { Counter, Gauge, Histogram } from './prometheus.js';

describe('the Prometheus text exposition format', () => {
  it('writes counters with escaped labels, gauges, and histograms with cumulative buckets', () => {
    const counter = new Counter('requests_total', 'Requests.');
    counter.add({ route: '/v1/score', status: '200' });
    counter.add({ route: '/v1/score', status: '200' }, 2);
    counter.add({ route: 'a"b\\c\nd', status: '404' });
    expect(counter.text()).toBe(
      '# HELP requests_total Requests.\n# TYPE requests_total counter\nrequests_total{route="/v1/score",status="200"} 3\nrequests_total{route="a\\"b\\\\c\\nd",status="404"} 1\n',
    );
    expect(new Gauge('in_flight', 'In flight.', () => 2).text()).toBe('# HELP in_flight In flight.\n# TYPE in_flight gauge\nin_flight 2\n');

    const histogram = new Histogram('latency_seconds', 'Latency.', [0.1, 1]);
    for (const value of [0.05, 0.5, 0.5, 3]) histogram.observe({ route: '/pooling' }, value);
    expect(histogram.text()).toBe(
      [
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{route="/pooling",le="0.1"} 1',
        'latency_seconds_bucket{route="/pooling",le="1"} 3',
        'latency_seconds_bucket{route="/pooling",le="+Inf"} 4',
        'latency_seconds_sum{route="/pooling"} 4.05',
        'latency_seconds_count{route="/pooling"} 4',
        '',
      ].join('\n'),
    );
  });
});
