import {
  aggregateScored,
  firstStepBelow,
  recordTrust,
  type CalibrationThreshold,
  type Evidence,
  type Gauge,
  type PairMeta,
  type StepScores,
  type Trust,
} from '@reward-lens/core';

/** The aggregate of a record's step scores; `scoredSteps` appears when some steps had no score. */
export interface RecordAggregate {
  name: string;
  /** NaN (null in JSON) when no step was scored. */
  value: number;
  /** How many steps the aggregate is over, when fewer than all (left truncation cut the others off). */
  scoredSteps?: number;
}

/** One record's scores with every label they carry, ready for the table or a JSON line. */
export interface ScoredRecord {
  /** The reward at the last step: the outcome score, equal to the last of `stepScores`. */
  outcome: number;
  /** NaN (null in JSON) for a step whose read left truncation cut off. */
  stepScores: number[];
  steps: string[];
  aggregate: RecordAggregate;
  /** Core's meta without its notes, which are in `notes` already. */
  meta: Omit<PairMeta, 'notes'>;
  /** The model's notes (which backend ran, the recipe), then this record's own. */
  notes: string[];
  backend: string;
  gauge: Gauge;
  trust: Trust;
  /** The calibration's decision threshold, when the model ships one. */
  threshold?: CalibrationThreshold;
  /**
   * With a threshold: the index of the first step scoring below it (ProcessBench's predicted first
   * error, in its convention: 0-based, -1 when every step clears the threshold).
   */
  predictedErrorStep?: number;
}

/** What the model says about every record it scores. */
export interface ModelLabels {
  backend: string;
  notes: readonly string[];
  /** Present when the model's calibration carries a decision threshold (and results are calibrated). */
  threshold?: CalibrationThreshold;
}

/** `[1, 2, 3, 5]` as `1–3, 5`. */
function stepList(numbers: readonly number[]): string {
  const ranges: string[] = [];
  for (let start = 0; start < numbers.length; ) {
    let end = start;
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++;
    ranges.push(end > start ? `${numbers[start]}–${numbers[end]}` : String(numbers[start]));
    start = end + 1;
  }
  return ranges.join(', ');
}

/** The aggregate over the steps that have a score (core's `aggregateScored`), with a note naming the steps it leaves out. */
export function aggregateScoredSteps(curve: ArrayLike<number>, name: string): { aggregate: RecordAggregate; notes: string[] } {
  const { value, scoredSteps, unscoredSteps } = aggregateScored(curve, name);
  if (curve.length > 0 && unscoredSteps.length === 0) return { aggregate: { name, value }, notes: [] };
  if (scoredSteps === 0) return { aggregate: { name, value, scoredSteps: 0 }, notes: [`${name} not computed: no step has a score`] };
  const stepWord = unscoredSteps.length === 1 ? 'step' : 'steps';
  return {
    aggregate: { name, value, scoredSteps },
    notes: [`${name} is over the ${scoredSteps} scored steps of ${curve.length}; ${stepWord} ${stepList(unscoredSteps)} left out (no score)`],
  };
}

/** Splits a batch's step scores into one record per pair, with the chosen aggregate added. */
export function scoredRecordsFromEvidence(evidence: Evidence<StepScores>, model: ModelLabels, aggregateName: string): ScoredRecord[] {
  return evidence.value.curves.map((curve, index) => {
    const stepScores = Array.from(curve);
    const { notes: pairNotes, ...meta } = evidence.value.meta[index]!;
    const aggregated = aggregateScoredSteps(curve, aggregateName);
    return {
      outcome: stepScores[stepScores.length - 1]!,
      stepScores,
      steps: evidence.value.steps[index]!.map((step) => step.text),
      aggregate: aggregated.aggregate,
      meta,
      notes: [...model.notes, ...pairNotes, ...aggregated.notes],
      backend: model.backend,
      gauge: evidence.gauge,
      trust: recordTrust(evidence, index),
      ...(model.threshold !== undefined ? { threshold: model.threshold, predictedErrorStep: firstStepBelow(stepScores, model.threshold.value) } : {}),
    };
  });
}
