// The public API of @reward-lens/backend-webgpu, by name.
import type {} from './webgpu-types.js';
export { createWebGpuBackend, webGpuBackendCapabilities, type WebGpuBackendOptions } from './create-webgpu-backend.js';
export { webGpuBackendRegistration, webGpuSoftwareBackendRegistration } from './webgpu-backend-registration.js';
export { getNodeGpu, isNodeRuntime, swiftShaderIcdPath, type NodeGpuOptions } from './node-gpu.js';
export { acquireDevice, requestWebGpuAdapter, type AcquireDeviceOptions, type AcquiredDevice } from './device/acquire-device.js';
export { describeAdapterInfo, isSoftwareAdapter, isSoftwareAdapterInfo } from './device/adapter-kind.js';
export { WebGpuUnavailableError } from './errors/webgpu-unavailable-error.js';
export { WebGpuDeviceLostError } from './errors/webgpu-device-lost-error.js';
export { WebGpuExecutionError, type WebGpuFailureKind } from './errors/webgpu-execution-error.js';
