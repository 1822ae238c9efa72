// The public API of @reward-lens/backend-onnx-web, by name.
export { createOnnxWebBackend, type OnnxWebBackendOptions } from './create-onnx-web-backend.js';
export type { OnnxWebExecutionProvider } from './execution-provider.js';
export type { WasmSettings } from './load-onnxruntime-web.js';
export type { OnnxHeadConfig, OnnxModelConfig } from '@reward-lens/onnx-backend-common';
export { onnxWebBackendRegistration } from './onnx-web-backend-registration.js';
