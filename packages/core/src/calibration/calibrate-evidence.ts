import type { Evidence, Trust } from '@reward-lens/spec';
import type { OutcomeScores, StepScores } from '../process-rm/process-rm-results.js';
import { applyStepCalibration, calibrationNote, type StepCalibration } from './step-calibration.js';

function calibrateValues(values: Float32Array, calibration: StepCalibration): Float32Array {
  return values.map((score) => applyStepCalibration(calibration.map, score));
}

/**
 * The trust and notes of calibrated evidence: `CALIBRATED` unless a scored record is outside the
 * model's domain (`outOfDomain[i]`), in which case the batch is `EXPLORATORY` and says how many.
 */
function calibratedLabels(evidence: Evidence<unknown>, calibration: StepCalibration, outOfDomain: readonly boolean[]) {
  const outside = outOfDomain.filter(Boolean).length;
  const notes = [...evidence.notes, calibrationNote(calibration)];
  if (outside === 0) return { gauge: 'PROBABILITY' as const, trust: 'CALIBRATED' as const, notes };
  const which = outOfDomain.length === 1 ? 'the record is' : `${outside} of ${outOfDomain.length} records are`;
  notes.push(`${which} outside the model's domain: probabilities through the calibration map, not calibrated for that text (trust EXPLORATORY)`);
  return { gauge: 'PROBABILITY' as const, trust: 'EXPLORATORY' as const, notes };
}

/** Step scores mapped through a calibration: probabilities, trust `CALIBRATED` (unless a record is outside the domain), the set named in the notes. */
export function calibrateStepEvidence(evidence: Evidence<StepScores>, calibration: StepCalibration | undefined): Evidence<StepScores> {
  if (calibration === undefined) return evidence;
  const curves = evidence.value.curves.map((curve) => calibrateValues(curve, calibration));
  const outOfDomain = evidence.value.meta.map((meta) => meta.outOfDomain !== undefined);
  const meta = evidence.value.meta.map((pair, index) => ({ ...pair, trust: outOfDomain[index] ? ('EXPLORATORY' as const) : ('CALIBRATED' as const) }));
  return { value: { ...evidence.value, curves, meta }, ...calibratedLabels(evidence, calibration, outOfDomain) };
}

/** Outcome scores (the last step's score) mapped through the same step calibration. */
export function calibrateOutcomeEvidence(
  evidence: Evidence<OutcomeScores>,
  calibration: StepCalibration | undefined,
  outOfDomain: readonly boolean[] = [],
): Evidence<OutcomeScores> {
  if (calibration === undefined) return evidence;
  const values = calibrateValues(evidence.value.values, calibration);
  return { value: { ...evidence.value, values }, ...calibratedLabels(evidence, calibration, outOfDomain) };
}

/**
 * One record's trust within step-score evidence: the calibrated evidence's per-record trust
 * (`EXPLORATORY` for a record a domain check put outside the model's domain), else the evidence's.
 */
export function recordTrust(evidence: Evidence<StepScores>, index: number): Trust {
  return evidence.value.meta[index]?.trust ?? evidence.trust;
}
