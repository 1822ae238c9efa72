import type { ProcessRM } from '@reward-lens/core';
import type { DynamicBatcher } from '../batching/dynamic-batcher.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';
import type { StepPooling } from '../pooling/step-pooling.js';
import type { RecordScorer } from '../records/record-scorer.js';
import type { ResolvedServerOptions } from '../server-options.js';
import type { ServerJob } from '../server-jobs.js';

/** What the routes share: the model, the batcher, the records, the limits and the metrics. */
export interface RouteContext {
  prm: ProcessRM;
  options: ResolvedServerOptions;
  batcher: DynamicBatcher<ServerJob, unknown>;
  records: RecordScorer;
  pooling: StepPooling;
  metrics: ServerMetrics;
  /** The model for a record's own delimiter (the served one when it names none). */
  processRMFor(delimiter: string | undefined): ProcessRM;
}

/** What a route answers: a status and a JSON body (a value, or JSON text already made). */
export interface RouteAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
