// The public API of @reward-lens/onnx-backend-common, by name: what the ONNX runtime packages
// (backend-onnx-node, backend-onnx-web) share. Users import those packages instead.
export { createOrtBackend, type ExportedHead, type OnnxBackendOptions, type OrtBackendSettings } from './create-ort-backend.js';
export { parseOnnxConfigJson, type OnnxHeadConfig, type OnnxModelConfig } from './onnx-model-config.js';
export type { OrtModule, OrtSession, OrtTensor, OrtTensorConstructor, OrtValueMetadata } from './ort-module.js';
export { configLocations } from './config-locations.js';
export { inMemoryGraphOptions } from './in-memory-graph.js';
export {
  createOrtBackendFromSource,
  decoderWeightBytes,
  ortBackendDtypes,
  type DecoderExportOptions,
  type ExportedFolderFiles,
  type ExportedGraphFiles,
  type OrtSourceFactory,
} from './create-from-source.js';
export { ortBackendRegistration, type OrtRegistrationSpec } from './ort-backend-registration.js';
