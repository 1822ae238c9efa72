import { Counter, Gauge, Histogram } from './prometheus.js';

/** The server's metrics, in the Prometheus text exposition format (`GET /metrics`). */
export class ServerMetrics {
  readonly requests = new Counter('reward_lens_http_requests_total', 'HTTP requests answered, by route and status.');
  readonly latency = new Histogram(
    'reward_lens_http_request_duration_seconds',
    'Time from a request arriving to its answer, by route.',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  readonly batchSize = new Histogram('reward_lens_batch_size', 'Jobs (records or prompts) per dynamic batch, by kind.', [1, 2, 4, 8, 16, 32, 64, 128, 256]);
  readonly batchTokens = new Histogram('reward_lens_batch_tokens', 'Tokens per dynamic batch, by kind.', [64, 256, 1024, 4096, 16384, 65536]);
  readonly batchSeconds = new Histogram(
    'reward_lens_batch_duration_seconds',
    'Time one dynamic batch takes on the model, by kind.',
    [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  readonly promptTokens = new Counter('reward_lens_prompt_tokens_total', 'Tokens scored, by route.');
  readonly records = new Counter('reward_lens_records_total', 'Records and prompts scored, by route and outcome (scored or error).');
  private readonly gauges: Gauge[];

  constructor(state: { inFlight(): number; queued(): number }) {
    this.gauges = [
      new Gauge('reward_lens_requests_in_flight', 'Requests being handled now.', state.inFlight),
      new Gauge('reward_lens_batch_queue_jobs', 'Jobs waiting for a dynamic batch.', state.queued),
    ];
  }

  text(): string {
    return [this.requests, this.latency, this.batchSize, this.batchTokens, this.batchSeconds, this.promptTokens, this.records, ...this.gauges]
      .map((metric) => metric.text())
      .join('');
  }
}
