import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, type DecoderModel } from '@reward-lens/spec';
import { float16ToFloat32Bits } from '@reward-lens/spec/internal';
import { conformanceConfigs, expectClose, toleranceFor } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { toFloat16Array } from './float16.js';

// The conversion itself (every half, ties to even) is spec's half-precision.test.ts.
describe('float32 to float16', () => {
  it('pads a tensor to an even length of halves', () => {
    expect(toFloat16Array(Float32Array.of(1, 2, 3))).toHaveLength(4);
  });

  // The fp16 shaders need `shader-f16`, which SwiftShader lacks: this checks, on the CPU, that
  // weights rounded to half precision stay within the tolerance an fp16 backend declares.
  it('keeps a model with half-precision weights within the fp16 tolerance of the fp32 one', async () => {
    const widened = (halves: Uint16Array) => new Float32Array(Uint32Array.from(halves, float16ToFloat32Bits).buffer);
    for (const { config } of conformanceConfigs) {
      const model = createRandomDecoder({ seed: 1234, config });
      const rounded: DecoderModel = {
        config,
        tensors: new Map([...model.tensors].map(([name, tensor]) => [name, widened(toFloat16Array(tensor).subarray(0, tensor.length))])),
      };
      const ids = Int32Array.from({ length: 40 }, (_, index) => (index * 37) % config.vocabSize);
      const request = {
        batchSize: 1,
        sequenceLength: ids.length,
        inputIds: ids,
        attentionMask: new Uint8Array(ids.length).fill(1),
        reads: [{ kind: 'head' as const, head: 'value', positions: [Array.from(ids, (_, index) => index)] }],
      };
      const full = await createTinyBackend(model).doForward(request);
      const half = await createTinyBackend(rounded).doForward(request);
      expectClose(half.reads[0]!.values[0]!, full.reads[0]!.values[0]!, toleranceFor('fp16'), config.architecture);
    }
  });
});
