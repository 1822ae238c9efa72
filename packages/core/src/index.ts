// The public API of @reward-lens/core, by name.
export {
  Capability,
  capabilitiesOf,
  capabilityNamesOf,
  formatCapabilities,
  hasCapability,
  parseCapabilities,
  type Capabilities,
  type CapabilityName,
} from './capabilities.js';
export {
  BackendContractError,
  BackendResolutionError,
  BackendWorkerError,
  InvalidInputError,
  ModelLoadError,
  NonFiniteOutputError,
  RewardLensError,
  SequenceTooLongError,
  UnsupportedCapabilityError,
  type SkippedBackend,
} from './errors/index.js';
export { createEvidence, type Evidence, type Gauge, type Trust } from './evidence.js';
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
export type {
  BackendV1,
  BackwardRequestV1,
  BackwardResultV1,
  CacheHandleV1,
  ForwardRequestV1,
  ForwardResultV1,
  HeadInfoV1,
  HeadKindV1,
  HvpRequestV1,
  HvpResultV1,
  ModelInfoV1,
  PrecisionV1,
  ReadGradientsV1,
  ReadRequestV1,
  ReadResultV1,
  TangentV1,
} from './backend/v1/index.js';
export {
  checkReadGradientShapes,
  decoderModelInfo,
  describeDecoder,
  resolveReadGradients,
  validateBackwardRequest,
  validateForwardRequest,
  validateHvpRequest,
} from './backend/v1/index.js';
export {
  backendCandidates,
  registerBackend,
  registeredBackends,
  resolveBackend,
  type BackendCreateOptions,
  type BackendRequestContext,
  type BackendRegistration,
  type ResolvedBackend,
} from './backend/registry.js';
export { readsWeightsOverGraph } from './backend/folder-source-choice.js';
export {
  isDecoderSource,
  isOnnxSource,
  unsupportedSourceReason,
  type DecoderModelSource,
  type ModelSource,
  type ModelSourceBase,
  type OnnxModelSource,
} from './backend/model-source.js';
export {
  createRandomDecoder,
  defineDecoderConfig,
  describeHead,
  describeHeads,
  FINAL_NORM_WEIGHT,
  formatHeadDescription,
  outputProjectionOf,
  unknownHeadOperation,
  expectedTensorShapes,
  headWidth,
  tinyDecoderConfig,
  validateDecoderModel,
  type DecoderArchitecture,
  type DecoderConfig,
  type DecoderModel,
  type HeadDescription,
  type HeadHiddenLayer,
  type HeadOperation,
  type HeadSpec,
} from './model/index.js';
export * from './recipes/index.js';
export {
  ProcessRM,
  ScoredPrefix,
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
  type ScoringInput,
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
export {
  RemoteHttpError,
  RemoteModelNotFoundError,
  RemoteResponseError,
  RemoteTimeoutError,
  RemoteUnreachableError,
  errorMessageOf,
  poolingRowsOf,
  servedModelsOf,
  type PoolingRowsResult,
  type VllmErrorResponse,
  type VllmModelCard,
  type VllmModelList,
  type VllmOptions,
  type VllmPoolingRequest,
  type VllmPoolingResponse,
  type VllmPoolingResponseData,
  type VllmUsageInfo,
} from './remote/index.js';
export * from './segmenter/index.js';
export * from './tokenizers/index.js';
export * from './loading/index.js';
export * from './generation/index.js';
