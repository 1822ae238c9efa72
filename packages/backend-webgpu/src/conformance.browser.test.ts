import { runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { acquireDevice } from './device/acquire-device.js';

// The same backend in the browser, on navigator.gpu (Chromium's SwiftShader adapter here).
// One device for the suite, so that the shaders compile once. Parity against the float64 oracle.
const { device } = await acquireDevice({ gpu: navigator.gpu, allowSoftwareAdapter: true });

runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'backend-webgpu in Chromium (navigator.gpu)',
  createBackend: async (model) => createWebGpuBackend(model, { device, allowSoftwareAdapter: true }),
});
