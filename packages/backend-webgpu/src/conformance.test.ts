import { createTinyBackend } from '@reward-lens/backend-tiny';
import { runBackendConformance } from '@reward-lens/core/testing';
import { it } from 'vitest';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { sharedSoftwareDevice, webGpuUnavailableReason } from './test-support/software-gpu.js';

const unavailable = await webGpuUnavailableReason();

if (unavailable) {
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
