import { createReferenceBackend, expectClose, toleranceFor } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { createRandomDecoder } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createOnnxWebBackend } from './index.js';

describe('onnx-web on a float16 graph (model_fp16.onnx), in Node', () => {
  it('declares fp16 and scores as the float64 oracle over the float32 weights, to fp16 tolerance, with and without a cache', async () => {
    const model = createRandomDecoder({ seed: 17 });
    const backend = await createOnnxWebBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, dtype: 'fp16' }), { decoder: model });
    try {
      expect(backend.precision).toBe('fp16');
      expect(backend.info.weightDtype).toBe('fp16');
      const ids = Int32Array.from([5, 6, 7, 8, 9, 10, 11, 12]);
      const request = (tokens: Int32Array) => ({
        batchSize: 1,
        sequenceLength: tokens.length,
        inputIds: tokens,
        attentionMask: new Uint8Array(tokens.length).fill(1),
        reads: [{ kind: 'head' as const, head: 'value', positions: [Array.from(tokens, (_, index) => index)] }],
      });
      const oracle = (await createReferenceBackend(model).doForward(request(ids))).reads[0]!.values[0]!;
      expectClose((await backend.doForward(request(ids))).reads[0]!.values[0]!, oracle, toleranceFor('fp16'), 'whole');
      const first = await backend.doForward({ ...request(ids.subarray(0, 5)), returnCache: true });
      const rest = await backend.doForward({ ...request(ids.subarray(5)), past: [first.caches![0]!] });
      expectClose(Float32Array.from([...first.reads[0]!.values[0]!, ...rest.reads[0]!.values[0]!]), oracle, toleranceFor('fp16'), 'continued');
      first.caches![0]!.release();
    } finally {
      await backend.dispose();
    }
  });
});
