export {
  applyStepCalibration,
  calibrationNote,
  firstStepBelow,
  validateStepCalibration,
  type CalibrationMap,
  type CalibrationSet,
  type CalibrationThreshold,
  type StepCalibration,
} from './step-calibration.js';
export { calibrateOutcomeEvidence, calibrateStepEvidence, recordTrust } from './calibrate-evidence.js';
