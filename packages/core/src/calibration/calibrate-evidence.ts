import type { Evidence } from '../evidence.js';
import type { OutcomeScores, StepScores } from '../process-rm/process-rm-results.js';
import { applyStepCalibration, calibrationNote, type StepCalibration } from './step-calibration.js';

function calibrateValues(values: Float32Array, calibration: StepCalibration): Float32Array {
  return values.map((score) => applyStepCalibration(calibration.map, score));
}

/** Step scores mapped through a calibration: probabilities, trust `CALIBRATED`, the set named in the notes. */
export function calibrateStepEvidence(evidence: Evidence<StepScores>, calibration: StepCalibration | undefined): Evidence<StepScores> {
  if (calibration === undefined) return evidence;
  const curves = evidence.value.curves.map((curve) => calibrateValues(curve, calibration));
  return { value: { ...evidence.value, curves }, gauge: 'PROBABILITY', trust: 'CALIBRATED', notes: [...evidence.notes, calibrationNote(calibration)] };
}

/** Outcome scores (the last step's score) mapped through the same step calibration. */
export function calibrateOutcomeEvidence(evidence: Evidence<OutcomeScores>, calibration: StepCalibration | undefined): Evidence<OutcomeScores> {
  if (calibration === undefined) return evidence;
  const values = calibrateValues(evidence.value.values, calibration);
  return { value: { ...evidence.value, values }, gauge: 'PROBABILITY', trust: 'CALIBRATED', notes: [...evidence.notes, calibrationNote(calibration)] };
}
