export { runBackendConformance, type ConformanceOptions, type ConformanceTestName } from './run-backend-conformance.js';
export { runGradientConformance, type GradientConformanceOptions, type GradientConformanceTestName } from './gradient-conformance.js';
export { conformanceConfigs, conformancePairs, toleranceFor } from './conformance-fixtures.js';
export { countingBackend } from './counting-backend.js';
export { expectClose } from './expect-close.js';
