import { createOrtBackendFromSource, type OrtSourceFactory } from '@reward-lens/onnx-backend-common';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createRandomDecoder, type BackendV1 } from '@reward-lens/spec';
import type { BackendCacheHandle } from '@reward-lens/spec/internal';
import { describe, expect, it } from 'vitest';
import { batchOf, idsOf, valueAt } from '../test/support/requests.js';
import { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';

const model = createRandomDecoder({ seed: 17 });
const half = exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, dtype: 'fp16' });
const full = exportDecoderToOnnx(model, { withPast: true, hiddenStates: true });

async function withBackends(run: (fp16: BackendV1, fp32: BackendV1) => Promise<void>): Promise<void> {
  const [fp16, fp32] = [
    await createOnnxNodeBackend(half, { decoder: model, intraOpThreads: 1 }),
    await createOnnxNodeBackend(full, { decoder: model, intraOpThreads: 1 }),
  ];
  try {
    await run(fp16, fp32);
  } finally {
    await fp16.dispose();
    await fp32.dispose();
  }
}

describe('a float16 graph (model_fp16.onnx)', () => {
  it('is about half the float32 graph, declares fp16, and says so in its notes', async () => {
    expect(half.byteLength).toBeLessThan(0.55 * full.byteLength);
    await withBackends(async (fp16) => {
      expect(fp16.precision).toBe('fp16');
      expect(fp16.info.weightDtype).toBe('fp16');
      expect(fp16.info.notes?.join('\n')).toContain('runs a float16 graph (weights, activations and cache in half precision');
    });
  });

  it('keeps its cache in float16, and a continued row scores as the whole row did', async () => {
    const ids = idsOf(14, 3);
    await withBackends(async (fp16, fp32) => {
      const whole = await fp16.doForward(batchOf([{ ids }], valueAt));
      const first = await fp16.doForward({ ...batchOf([{ ids: ids.slice(0, 9) }], valueAt), returnCache: true });
      const cache = first.caches![0]!;
      // The handle's keys and values are the graph's own float16 bits: half the bytes of a float32 cache.
      const stored = (cache as unknown as BackendCacheHandle<{ keys: ArrayBufferView[] }>).data();
      expect(stored.keys[0]).toBeInstanceOf(Uint16Array);
      const rest = await fp16.doForward({ ...batchOf([{ ids: ids.slice(9) }], valueAt), past: [cache] });
      const continued = [...first.reads[0]!.values[0]!, ...rest.reads[0]!.values[0]!];
      continued.forEach((value, index) => expect(Math.abs(value - whole.reads[0]!.values[0]![index]!)).toBeLessThan(2e-2));
      cache.release();
      // And the float32 graph within fp16's tolerance.
      const reference = (await fp32.doForward(batchOf([{ ids }], valueAt))).reads[0]!.values[0]!;
      reference.forEach((value, index) => expect(Math.abs(value - whole.reads[0]!.values[0]![index]!)).toBeLessThan(2e-2 * Math.max(1, Math.abs(value))));
    });
  });

  it('decoder weights are exported at fp16 in memory; over the in-memory limit it says what to do instead', async () => {
    const factory: OrtSourceFactory<OnnxNodeBackendOptions> = {
      name: 'onnx-node',
      create: createOnnxNodeBackend,
      exporter: async () => exportDecoderToOnnx,
      inMemoryLimitBytes: 0,
    };
    const source = { kind: 'decoder' as const, model, description: 'seeded weights' };
    const inMemory = await createOrtBackendFromSource(
      { ...factory, inMemoryLimitBytes: Number.POSITIVE_INFINITY },
      source,
      { dtype: 'fp16' },
      { intraOpThreads: 1 },
    );
    expect(inMemory.precision).toBe('fp16');
    expect(inMemory.info.description).toContain('(fp16, the whole graph)');
    await inMemory.dispose();
    await expect(createOrtBackendFromSource(factory, source, { dtype: 'fp16' }, { intraOpThreads: 1 })).rejects.toThrow(
      /exports decoder weights at fp16 only in memory.*run fp16 weights on backend tiny or webgpu/,
    );
  });
});
