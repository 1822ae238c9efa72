import { createTinyBackend } from '@reward-lens/backend-tiny';
import { runBackendConformance } from '@reward-lens/core/testing';
import { it } from 'vitest';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { sharedSoftwareDevice, webGpuUnavailableReason } from './test-support/software-gpu.js';

const unavailable = await webGpuUnavailableReason();

if (unavailable && process.env.CI) {
  // CI installs SwiftShader (tools/bootstrap.sh): there, a missing adapter is a failure, not a skip.
  it('backend conformance: webgpu', () => {
    throw new Error(`no WebGPU adapter in CI: ${unavailable}`);
  });
} else if (unavailable) {
  it.skip(`backend conformance: webgpu (skipped: ${unavailable})`, () => undefined);
} else {
  // One SwiftShader device for every backend of the suite: each backend still uploads its own
  // weights and owns its caches, but the shaders compile once.
  runBackendConformance({
    label: 'backend-webgpu on SwiftShader',
    createBackend: async (model) => createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice() }),
    createReference: async (model) => createTinyBackend(model),
  });
}
