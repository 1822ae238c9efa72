import { describe, expect, it } from 'vitest';
import { getNodeGpu } from '../node-gpu.js';
import { webGpuUnavailableReason } from '../../test/support/software-gpu.js';
import { acquireDevice } from './acquire-device.js';
import { BufferUsage } from './gpu-constants.js';
import { GpuRuntime } from './gpu-runtime.js';

async function freshRuntime(timeoutMs = 30_000): Promise<GpuRuntime> {
  const { device } = await acquireDevice({ gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true });
  return new GpuRuntime(device, { ownsDevice: true, timeoutMs });
}

function copyOf(runtime: GpuRuntime, values: Float32Array) {
  return (encoder: GPUCommandEncoder) => {
    const source = runtime.uploadBuffer('source', values, BufferUsage.COPY_SRC);
    const target = runtime.createBuffer('target', values.byteLength, BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
    encoder.copyBufferToBuffer(source, 0, target, 0, values.byteLength);
    return { source: target, byteLength: values.byteLength, transient: [source, target] };
  };
}

describe.skipIf((await webGpuUnavailableReason()) !== null)('GpuRuntime (SwiftShader)', () => {
  it('reads back one submission with one mapping', async () => {
    const runtime = await freshRuntime();
    const values = Float32Array.of(1, 2, 3);
    expect(Array.from(new Float32Array(await runtime.submitAndRead('copy', copyOf(runtime, values))))).toEqual([1, 2, 3]);
    runtime.dispose();
  });

  it('turns a device error into a typed validation error instead of garbage', async () => {
    const runtime = await freshRuntime();
    const failing = runtime.submitAndRead('a bad copy', (encoder) => {
      const source = runtime.createBuffer('small', 4, BufferUsage.COPY_SRC);
      encoder.copyBufferToBuffer(source, 0, source, 0, 64);
      return { source, byteLength: 4, transient: [source] };
    });
    await expect(failing).rejects.toMatchObject({ code: 'WEBGPU_EXECUTION', kind: 'validation' });
    runtime.dispose();
  });

  it('rejects pending and later work with WEBGPU_DEVICE_LOST when the device goes', async () => {
    const runtime = await freshRuntime();
    const pending = runtime.submitAndRead('copy', copyOf(runtime, Float32Array.of(1)));
    runtime.device.destroy();
    await expect(pending).rejects.toMatchObject({ code: 'WEBGPU_DEVICE_LOST', reason: 'destroyed' });
    await expect(runtime.submitAndRead('copy', copyOf(runtime, Float32Array.of(1)))).rejects.toMatchObject({ code: 'WEBGPU_DEVICE_LOST' });
    expect(() => runtime.assertAlive()).toThrow(/device was lost/);
  });

  it('gives up on GPU work after the timeout instead of hanging', async () => {
    const runtime = await freshRuntime(1);
    await expect(runtime.guard(new Promise<never>(() => undefined), 'a readback that never ends')).rejects.toMatchObject({
      code: 'WEBGPU_EXECUTION',
      kind: 'timeout',
      message: expect.stringMatching(/did not finish within 1 ms/),
    });
    runtime.dispose();
  });

  it('does not treat its own dispose as a device loss', async () => {
    const runtime = await freshRuntime();
    runtime.dispose();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runtime.lostError).toBeNull();
  });
});
