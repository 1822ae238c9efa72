export { segmentSolution, defaultStepDelimiter } from './segment-solution.js';
export { segmentGivenSteps } from './segment-given-steps.js';
export { linearTimeDelimiter } from './linear-time-delimiter.js';
export { mapStepsToTokens, mapSpanToReadToken } from './map-steps-to-tokens.js';
export type { SegmentSolutionOptions } from './segment-solution.js';
export type { MapStepsToTokensOptions } from './map-steps-to-tokens.js';
export type { LearnedStepsMeta, DelimiterMatcher, StepDelimiter, StepBoundaryDetector, SegmentedStep, Segmentation, StepTokens } from './types.js';
