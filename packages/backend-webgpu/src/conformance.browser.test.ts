import { createTinyBackend } from '@reward-lens/backend-tiny';
import { runBackendConformance } from '@reward-lens/core/testing';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { acquireDevice } from './device/acquire-device.js';

// The same backend in the browser, on navigator.gpu (Chromium's SwiftShader adapter here).
// One device for the suite, so that the shaders compile once.
const { device } = await acquireDevice({ gpu: navigator.gpu, allowSoftwareAdapter: true });

runBackendConformance({
  label: 'backend-webgpu in Chromium (navigator.gpu)',
  createBackend: async (model) => createWebGpuBackend(model, { device, allowSoftwareAdapter: true }),
  createReference: async (model) => createTinyBackend(model),
});
