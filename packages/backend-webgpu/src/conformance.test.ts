import { createReferenceBackend, dequantizedModel, runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, it } from 'vitest';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { sharedSoftwareDevice, webGpuUnavailableReason } from '../test/support/software-gpu.js';

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
  // weights and owns its caches, but the shaders compile once. Parity against the float64 oracle
  // (the kit's default reference), for every head shape.
  runBackendConformance({
    harness: vitestHarness({ describe, it }),
    label: 'backend-webgpu on SwiftShader',
    createBackend: async (model) => createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice() }),
  });
  // bf16, q8 and q4 matrices (any adapter: no feature needed), against the float64 oracle over
  // the same weights rounded or quantized: the kernels' exact widening and dequantization checked
  // to the declared precision's tolerance (fp32's for q8 and q4, whose products are f32).
  for (const dtype of ['bf16', 'q8', 'q4'] as const) {
    runBackendConformance({
      harness: vitestHarness({ describe, it }),
      label: `backend-webgpu ${dtype} on SwiftShader`,
      createBackend: async (model) => createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), dtype }),
      createReference: async (model) => createReferenceBackend(dequantizedModel(model, dtype)),
    });
  }
}
