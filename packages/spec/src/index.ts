// The public API of @reward-lens/spec, by name: the versioned backend spec every reward-lens
// backend implements. No runtime dependencies.
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
export * from './errors/index.js';
export { createEvidence, type Evidence, type Gauge, type Trust } from './evidence.js';
export * from './backend/v1/index.js';
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
export { readsDecoderFolders, readsWeightsOverGraph, takesWeightArena } from './backend/folder-source-choice.js';
export {
  isDecoderFolderSource,
  isDecoderSource,
  isOnnxSource,
  unsupportedSourceReason,
  type DecoderFolderSource,
  type DecoderModelSource,
  type ModelSource,
  type ModelSourceBase,
  type OnnxModelSource,
} from './backend/model-source.js';
export * from './model/index.js';
