import type { ScoringInput } from '@reward-lens/core';
import type { BatchJob } from './batching/dynamic-batcher.js';
import type { PoolingJob } from './pooling/step-pooling.js';

/** One record of `/v1/score`: scored with the records that share its delimiter and aggregate. */
export interface ScoreJob extends BatchJob {
  kind: 'score';
  input: ScoringInput;
  delimiter: string | undefined;
  aggregate: string;
}

/** One prompt of `/pooling`: run with the prompts that share its activation setting. */
export interface PoolJob extends BatchJob {
  kind: 'pool';
  job: PoolingJob;
  useActivation: boolean;
}

export type ServerJob = ScoreJob | PoolJob;

export function scoreJob(input: ScoringInput, tokens: number, delimiter: string | undefined, aggregate: string): ScoreJob {
  return { kind: 'score', key: `score\u0000${delimiter ?? ''}\u0000${aggregate}`, tokens, input, delimiter, aggregate };
}

export function poolJob(job: PoolingJob, useActivation: boolean): PoolJob {
  return { kind: 'pool', key: `pool\u0000${useActivation}`, tokens: job.ids.length, job, useActivation };
}
