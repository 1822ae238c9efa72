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
  InvalidInputError,
  ModelLoadError,
  RewardLensError,
  SequenceTooLongError,
  UnsupportedCapabilityError,
  type SkippedBackend,
} from './errors/index.js';
export { createEvidence, type Evidence, type Gauge, type Trust } from './evidence.js';
export {
  aggregate,
  aggregatorNames,
  builtInAggregators,
  getAggregator,
  registerAggregator,
  type Aggregator,
  type BuiltInAggregatorName,
} from './aggregators/index.js';
export type {
  BackendV1,
  CacheHandleV1,
  ForwardRequestV1,
  ForwardResultV1,
  HeadInfoV1,
  HeadKindV1,
  ModelInfoV1,
  PrecisionV1,
  ReadRequestV1,
  ReadResultV1,
} from './backend/v1/index.js';
export { decoderModelInfo, describeDecoder, validateForwardRequest } from './backend/v1/index.js';
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
export type { ModelSource } from './backend/model-source.js';
export {
  createRandomDecoder,
  defineDecoderConfig,
  expectedTensorShapes,
  headWidth,
  tinyDecoderConfig,
  validateDecoderModel,
  type DecoderArchitecture,
  type DecoderConfig,
  type DecoderModel,
  type HeadHiddenLayer,
  type HeadSpec,
} from './model/index.js';
export * from './recipes/index.js';
export {
  ProcessRM,
  ScoredPrefix,
  type OutcomeScores,
  type PairErrors,
  type ScoringOptions,
  type PairMeta,
  type PrefixScores,
  type ProcessRMOptions,
  type ScoringInput,
  type StepActivations,
  type StepScores,
  type TinyModelOptions,
  type PretrainedOptions,
  type TokenizedPair,
  type TokenizedStep,
} from './process-rm/index.js';
export { forwardInBatches, type ForwardBatchOptions, type SequenceReads } from './process-rm/forward-batches.js';
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
