import { createRandomDecoder } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { acquireDevice } from './device/acquire-device.js';
import { getNodeGpu } from './node-gpu.js';
import { webGpuUnavailableReason } from '../test/support/software-gpu.js';

const request = (length: number) => ({
  batchSize: 1,
  sequenceLength: length,
  inputIds: Int32Array.from({ length }, (_, index) => index + 1),
  attentionMask: new Uint8Array(length).fill(1),
  reads: [{ kind: 'head' as const, head: 'value', positions: [[length - 1]] }],
});

describe.skipIf((await webGpuUnavailableReason()) !== null)('device loss (SwiftShader)', () => {
  it('rejects the pending call and every later one with WEBGPU_DEVICE_LOST instead of hanging', async () => {
    // A device of its own, shared with nobody: the test destroys it behind the backend's back.
    const { device } = await acquireDevice({ gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true });
    const backend = await createWebGpuBackend(createRandomDecoder({ seed: 2 }), { device, allowSoftwareAdapter: true });
    await backend.doForward(request(4));
    const pending = backend.doForward(request(40));
    device.destroy();
    await expect(pending).rejects.toMatchObject({ code: 'WEBGPU_DEVICE_LOST', name: 'WebGpuDeviceLostError' });
    await expect(backend.doForward(request(4))).rejects.toMatchObject({ code: 'WEBGPU_DEVICE_LOST', message: /create a new backend/ });
    await backend.dispose();
  });
});
