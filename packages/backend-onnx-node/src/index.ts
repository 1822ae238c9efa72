// The public API of @reward-lens/backend-onnx-node, by name.
export { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';
export type { OnnxHeadConfig, OnnxModelConfig } from '@reward-lens/onnx-backend-common';
export { onnxNodeBackendRegistration } from './onnx-node-backend-registration.js';
