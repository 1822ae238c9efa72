// The public API of @reward-lens/core, by name.
// The backend spec, as @reward-lens/spec lists it (core adds no name of its own to it).
export * from '@reward-lens/spec';

export {
  applyStepCalibration,
  calibrationNote,
  firstStepBelow,
  validateStepCalibration,
  type CalibrationMap,
  type CalibrationSet,
  type CalibrationThreshold,
  type StepCalibration,
} from './calibration/index.js';
export { recordTrust } from './calibration/calibrate-evidence.js';
export { firstLoneSurrogate, requireWellFormedText } from './text/lone-surrogates.js';
export {
  outOfDomainNote,
  tokenDomainCheck,
  tokenRanges,
  unknownTokenShare,
  validateTokenDomainSpec,
  type DomainCheck,
  type DomainRecord,
  type TokenDomainSpec,
} from './domain/index.js';
export {
  aggregate,
  aggregateScored,
  aggregatorNames,
  builtInAggregators,
  getAggregator,
  registerAggregator,
  type Aggregator,
  type BuiltInAggregatorName,
  type ScoredAggregate,
} from './aggregators/index.js';

export * from './recipes/index.js';
export {
  ProcessRM,
  ScoredPrefix,
  type ExtendOptions,
  stepDetectionModes,
  type StepDetectionMode,
  type OutcomeScores,
  type PairErrors,
  type ScoringOptions,
  type PairMeta,
  type PrefixScores,
  type PairStepGradients,
  type ProcessRMOptions,
  type ScoreHvp,
  type ScoreHvpOptions,
  type StepGradientOptions,
  type StepGradients,
  type StepTokenGradients,
  type IntegrationCheck,
  type IntegrationBaseline,
  checkScoringRecord,
  type ScoringInput,
  type ScoringRecord,
  type StepActivations,
  type StepScores,
  type TinyModelOptions,
  type PretrainedOptions,
  type PretrainedFiles,
  type TokenizedPair,
  type TokenizedStep,
} from './process-rm/index.js';
export {
  forwardInBatches,
  forwardReadsInBatches,
  type ForwardBatchOptions,
  type ForwardReadsOptions,
  type SequenceReads,
} from './process-rm/forward-batches.js';
export { describeProbe, fitProbe, probeLogits, sigmoid, validateProbe, type FitProbeOptions, type Probe, type ProbeLayer } from './probes/index.js';
export * from './step-detection/index.js';
export type { ScoringSourceInfo, StepScoreSource } from './process-rm/score-source.js';
export { recipeColumns } from './process-rm/recipe-fit.js';
export * from './records/index.js';
// Rows of uneven length as one padded forward request (as every batch here is padded).
export { padRows, type PaddedRows } from '@reward-lens/spec/internal';
export * from './segmenter/index.js';
export * from '@reward-lens/tokenizers';
export * from '@reward-lens/loaders';
export * from './generation/index.js';
