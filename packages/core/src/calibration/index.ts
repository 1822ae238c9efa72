export {
  applyStepCalibration,
  calibrationNote,
  validateStepCalibration,
  type CalibrationMap,
  type CalibrationSet,
  type StepCalibration,
} from './step-calibration.js';
export { calibrateOutcomeEvidence, calibrateStepEvidence } from './calibrate-evidence.js';
