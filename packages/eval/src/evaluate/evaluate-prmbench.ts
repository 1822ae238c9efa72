import { verificationIndex, type MatchedPair, type VerificationIndex } from '../diagnostics/verification-index.js';
import type { ChosenThreshold } from '../processbench/choose-threshold.js';
import { itemFingerprint } from '../processbench/item-fingerprint.js';
import { prmBenchSamples, type PrmBenchRecord } from '../prmbench/prmbench-item.js';
import { PrmBenchTally, type PrmBenchMetrics } from '../prmbench/prmbench-tally.js';
import type { RecordFailure } from './evaluate-processbench.js';
import { scoreInBatches, type StepScorer } from './step-scorer.js';

export interface PrmBenchRun {
  threshold: { value: number; source: string };
  metrics: PrmBenchMetrics;
  /** Original against modified solution, at the first modified step, where the steps before it are identical. */
  verification: VerificationIndex & { skipped: number };
  samples: number;
  failures: RecordFailure[];
  notes: string[];
}

/**
 * Scores PRMBench records (each distinct solution once) and computes PRMBench's per-type step
 * detection metrics and the verification index over its original/modified pairs.
 */
export async function evaluatePrmBench(
  scorer: StepScorer,
  records: readonly PrmBenchRecord[],
  options: { threshold: ChosenThreshold; batchSize?: number; onProgress?: (done: number, total: number) => void },
): Promise<PrmBenchRun> {
  const solutions = new Map<string, { problem: string; steps: string[] }>();
  const keyOf = (problem: string, steps: readonly string[]) => itemFingerprint(problem, steps);
  const samples = [...prmBenchSamples(records)];
  for (const sample of samples) solutions.set(keyOf(sample.question, sample.steps), { problem: sample.question, steps: sample.steps });
  for (const record of records)
    solutions.set(keyOf(record.originalQuestion, record.originalSteps), { problem: record.originalQuestion, steps: record.originalSteps });
  const scores = new Map<string, Float32Array>();
  const failures: RecordFailure[] = [];
  const jobs = [...solutions.entries()].map(([key, solution]) => ({ ...solution, tag: key }));
  for await (const scored of scoreInBatches(scorer, jobs, options.batchSize ?? 8)) {
    if ('error' in scored) failures.push({ location: `solution ${scored.tag}`, ...scored.error });
    else scores.set(scored.tag, scored.stepScores);
    options.onProgress?.(scores.size + failures.length, jobs.length);
  }
  const tally = new PrmBenchTally(options.threshold.value);
  let scoredSamples = 0;
  for (const sample of samples) {
    const stepScores = scores.get(keyOf(sample.question, sample.steps));
    if (!stepScores) continue;
    tally.add(sample.classification, sample.errorSteps, stepScores);
    scoredSamples++;
  }
  const pairs: MatchedPair[] = [];
  let skipped = 0;
  for (const record of records) {
    if (record.errorSteps.length === 0) continue;
    const first = Math.min(...record.errorSteps);
    const flawed = scores.get(keyOf(record.question, record.steps));
    const clean = scores.get(keyOf(record.originalQuestion, record.originalSteps));
    const samePrefix = record.question === record.originalQuestion && record.steps.slice(0, first).every((step, index) => step === record.originalSteps[index]);
    if (!flawed || !clean || first >= record.originalSteps.length || !samePrefix) {
      skipped++;
      continue;
    }
    pairs.push({ flawed: flawed[first]!, clean: clean[first]! });
  }
  const source = options.threshold.source;
  const beyond = records.filter((record) => record.errorSteps.some((step) => step >= record.steps.length)).length;
  const notes =
    beyond > 0 ? [`${beyond} record(s) name error steps past the end of their solution: kept, as PRMBench keeps them (those steps match no step)`] : [];
  return {
    notes,
    threshold: { value: options.threshold.value, source: source.kind === 'fixed' ? `fixed: ${source.reason}` : `chosen on "${source.name}"` },
    metrics: tally.metrics(),
    verification: { ...verificationIndex(pairs), skipped },
    samples: scoredSamples,
    failures,
  };
}
