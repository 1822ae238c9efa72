export {
  describeStepDetector,
  stepDetectorFileName,
  stepDetectorMismatch,
  validateStepDetector,
  type StepDetector,
  type StepDetectorHeldOut,
} from './step-detector.js';
export { stepSpansAtTokenEnds } from './step-spans.js';
export { boundaryProbabilities, stepsFromProbabilities, type DetectedSteps } from './detect-steps.js';
export type { DetectionFeatureOptions, SolutionTokenFeatures } from './solution-token-features.js';
