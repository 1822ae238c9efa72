import type { Evidence, StepScores } from '@reward-lens/core';

/** What evaluation needs of a model: `ProcessRM` is one (so is anything with its `stepScores`). */
export interface StepScorer {
  stepScores(inputs: readonly { problem: string; steps: string[] }[], options: { onInvalid: 'report' }): Promise<Evidence<StepScores>>;
}

/** A solution to score, with whatever the caller wants carried beside it. */
export interface ScoringJob<Tag> {
  problem: string;
  steps: string[];
  tag: Tag;
}

export type ScoredJob<Tag> =
  | { tag: Tag; stepScores: Float32Array; gauge: Evidence<StepScores>['gauge']; trust: Evidence<StepScores>['trust']; notes: string[] }
  | { tag: Tag; error: { code: string; message: string } };

/**
 * Scores jobs from a stream in batches of `batchSize`, yielding each as soon as its batch is done,
 * so only one batch is held at a time. A solution the model cannot score (too long, empty) comes
 * back as an error and the run goes on.
 */
export async function* scoreInBatches<Tag>(
  scorer: StepScorer,
  jobs: AsyncIterable<ScoringJob<Tag>> | Iterable<ScoringJob<Tag>>,
  batchSize = 8,
): AsyncGenerator<ScoredJob<Tag>> {
  let batch: ScoringJob<Tag>[] = [];
  const flush = async function* (): AsyncGenerator<ScoredJob<Tag>> {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    const evidence = await scorer.stepScores(
      current.map((job) => ({ problem: job.problem, steps: job.steps })),
      { onInvalid: 'report' },
    );
    for (const [index, job] of current.entries()) {
      const error = evidence.value.errors[index];
      if (error) yield { tag: job.tag, error: { code: error.code, message: error.message } };
      else yield { tag: job.tag, stepScores: evidence.value.curves[index]!, gauge: evidence.gauge, trust: evidence.trust, notes: evidence.notes };
    }
  };
  for await (const job of jobs) {
    batch.push(job);
    if (batch.length >= batchSize) yield* flush();
  }
  yield* flush();
}
