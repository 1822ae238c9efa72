// The public API of @reward-lens/backend-onnx-node, by name.
export { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';
export type { OnnxHeadConfig, OnnxModelConfig } from './onnx-model-config.js';
export { onnxNodeBackendRegistration } from './onnx-node-backend-registration.js';
