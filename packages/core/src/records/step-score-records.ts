import type { Evidence, Gauge, Trust } from '@reward-lens/spec';
import { recordTrust } from '../calibration/calibrate-evidence.js';
import { calibrationNote, firstStepBelow, type CalibrationThreshold } from '../calibration/index.js';
import type { ProcessRM } from '../process-rm/process-rm.js';
import type { StepScores } from '../process-rm/process-rm-results.js';
import type { PairMeta } from '../process-rm/tokenize-pair.js';
import { aggregateScoredSteps, type RecordAggregate } from './aggregate-scored-steps.js';

/**
 * One record's step scores with every label they carry, ready for a table, a JSON line or a
 * page: what `reward-lens score`, `reward-lens serve` and the demo give per record.
 */
export interface StepScoreRecord {
  /** The reward at the last step: the outcome score, equal to the last of `stepScores`. */
  outcome: number;
  /** NaN (null in JSON) for a step whose read left truncation cut off. */
  stepScores: number[];
  steps: string[];
  /** With `aggregate`: the chosen aggregate over the scored steps. */
  aggregate?: RecordAggregate;
  /** The pair's meta without its notes, which are in `notes`. */
  meta: Omit<PairMeta, 'notes'>;
  /** The model's notes (which backend ran, the recipe, the calibration), then this record's own. */
  notes: string[];
  backend: string;
  gauge: Gauge;
  trust: Trust;
  /** The calibration's decision threshold, when the model ships one and the scores are calibrated. */
  threshold?: CalibrationThreshold;
  /** With a threshold: the first step scoring below it (ProcessBench's predicted first error; -1 when none). */
  predictedErrorStep?: number;
}

/** What a model says about every record it scores: its name, its notes with the calibration's, its decision threshold when the scores are calibrated. */
export interface RecordLabels {
  backend: string;
  notes: readonly string[];
  threshold?: CalibrationThreshold;
}

/** The labels `prm`'s records carry, for evidence of `gauge`. */
export function recordLabels(prm: Pick<ProcessRM, 'source' | 'notes' | 'calibration'>, gauge: Gauge): RecordLabels {
  // A calibrated model's records name the calibration set and its domain, as its evidence does.
  const notes = prm.calibration ? [...prm.notes, calibrationNote(prm.calibration)] : prm.notes;
  const threshold = gauge === 'PROBABILITY' ? prm.calibration?.threshold : undefined;
  return { backend: prm.source.name, notes, ...(threshold ? { threshold } : {}) };
}

/**
 * Splits a batch's step scores into one record per pair (an errored pair's record is empty:
 * check `evidence.value.errors`), with `aggregate` when given.
 *
 * @example
 * const evidence = await prm.stepScores(records, { onInvalid: 'report' });
 * const rows = recordsFromEvidence(evidence, recordLabels(prm, evidence.gauge), { aggregate: 'min' });
 */
export function recordsFromEvidence(evidence: Evidence<StepScores>, labels: RecordLabels, options: { aggregate?: string } = {}): StepScoreRecord[] {
  return evidence.value.curves.map((curve, index) => {
    const stepScores = Array.from(curve);
    const { notes: pairNotes, ...meta } = evidence.value.meta[index]!;
    const aggregated = options.aggregate !== undefined ? aggregateScoredSteps(curve, options.aggregate) : undefined;
    return {
      outcome: stepScores[stepScores.length - 1]!,
      stepScores,
      steps: evidence.value.steps[index]!.map((step) => step.text),
      ...(aggregated ? { aggregate: aggregated.aggregates[0]! } : {}),
      meta,
      notes: [...labels.notes, ...pairNotes, ...(aggregated?.notes ?? [])],
      backend: labels.backend,
      gauge: evidence.gauge,
      trust: recordTrust(evidence, index),
      ...(labels.threshold !== undefined ? { threshold: labels.threshold, predictedErrorStep: firstStepBelow(stepScores, labels.threshold.value) } : {}),
    };
  });
}
