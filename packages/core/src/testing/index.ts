export {
  runBackendConformance,
  type ConformanceOptions,
  type OwnModelConformanceOptions,
  type SeededConformanceOptions,
} from './run-backend-conformance.js';
export type { ConformanceSkipList, ConformanceTestName } from './conformance-suite.js';
export type { ConformanceReferenceOutput, OwnModelConformance } from './own-model-suite.js';
export {
  ConformanceSkip,
  jestHarness,
  nodeTestHarness,
  vitestHarness,
  type ConformanceHarness,
  type ConformanceTestContext,
  type HarnessOptions,
} from './conformance-harness.js';
export { recordingHarness, type ConformanceOutcome, type ConformanceReport } from './recording-harness.js';
export { ConformanceAssertionError, expectClose } from './conformance-assert.js';
export { conformanceConfigs, conformancePairs, mlpClassifierHead, toleranceFor } from './conformance-fixtures.js';
export {
  runGradientConformance,
  type GradientConformanceOptions,
  type GradientConformanceSkipList,
  type GradientConformanceTestName,
} from './gradient-conformance.js';
export { countingBackend } from './counting-backend.js';
export { createReferenceBackend } from './reference/reference-backend.js';
export { dequantizedModel } from './dequantized-model.js';
export { referenceForward, referenceLinear, referenceRmsNorm, type ReferenceRun } from './reference/reference-decoder.js';
export { referenceHead } from './reference/reference-head.js';
export { tokenDetector } from './token-detector.js';
