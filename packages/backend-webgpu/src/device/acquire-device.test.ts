import { createRandomDecoder, RewardLensError } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createWebGpuBackend } from '../create-webgpu-backend.js';
import { WebGpuUnavailableError } from '../errors/webgpu-unavailable-error.js';
import { getNodeGpu } from '../node-gpu.js';
import { webGpuUnavailableReason } from '../../test/support/software-gpu.js';
import { acquireDevice, requestWebGpuAdapter } from './acquire-device.js';

/** A WebGPU implementation that has no adapter to offer, as on a machine without drivers. */
const gpuWithoutAdapters = {
  requestAdapter: async () => null,
  getPreferredCanvasFormat: () => 'bgra8unorm',
  wgslLanguageFeatures: new Set<string>(),
} as unknown as GPU;

const unavailable = await webGpuUnavailableReason();

describe('acquiring a WebGPU device', () => {
  it('rejects with WEBGPU_UNAVAILABLE and says what to install when no adapter answers', async () => {
    const error = await requestWebGpuAdapter({ gpu: gpuWithoutAdapters }).catch((caught: unknown) => caught);
    expect(WebGpuUnavailableError.isInstance(error)).toBe(true);
    expect(RewardLensError.hasCode(error, 'WEBGPU_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/requestAdapter\(\) returned null/);
    expect((error as Error).message).toContain('apt-get install chromium libvulkan1');
    expect((error as Error).message).toContain('VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json');
  });

  it('fails createWebGpuBackend the same way, even when software adapters are allowed', async () => {
    const model = createRandomDecoder({ seed: 1 });
    await expect(createWebGpuBackend(model, { gpu: gpuWithoutAdapters, allowSoftwareAdapter: true })).rejects.toMatchObject({
      code: 'WEBGPU_UNAVAILABLE',
      name: 'WebGpuUnavailableError',
    });
  });

  describe.skipIf(unavailable !== null)('on SwiftShader', () => {
    it('refuses the software adapter unless it is allowed', async () => {
      const gpu = await getNodeGpu({ software: true });
      await expect(acquireDevice({ gpu })).rejects.toMatchObject({
        code: 'WEBGPU_UNAVAILABLE',
        message: expect.stringMatching(/software.*allowSoftwareAdapter/),
      });
      const acquired = await acquireDevice({ gpu, allowSoftwareAdapter: true, wantShaderF16: true });
      try {
        expect(acquired.software).toBe(true);
        expect(acquired.ownsDevice).toBe(true);
        // SwiftShader has no shader-f16: the fp16 path cannot run here.
        expect(acquired.shaderF16).toBe(false);
        expect(acquired.info?.description).toMatch(/SwiftShader/i);
      } finally {
        acquired.device.destroy();
      }
    });
  });
});
