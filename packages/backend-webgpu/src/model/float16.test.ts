import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, type DecoderModel } from '@reward-lens/spec';
import { conformanceConfigs, expectClose, toleranceFor } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { float32ToFloat16Bits, toFloat16Array } from './float16.js';

function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

describe('float32 to float16', () => {
  it('maps every half value (subnormals and infinities too) back to its own bits', () => {
    const wrong: number[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      const value = float16ToNumber(bits);
      const back = float32ToFloat16Bits(value);
      if (Number.isNaN(value) ? (back & 0x7c00) !== 0x7c00 || (back & 0x3ff) === 0 : back !== bits) wrong.push(bits);
    }
    expect(wrong).toEqual([]);
  });

  it('rounds to nearest, ties to even, and overflows to infinity', () => {
    expect(float32ToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // halfway, even stays
    expect(float32ToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // halfway, odd rounds up
    expect(float32ToFloat16Bits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01);
    expect(float32ToFloat16Bits(65520)).toBe(0x7c00);
    expect(float32ToFloat16Bits(-1e10)).toBe(0xfc00);
    expect(float32ToFloat16Bits(2 ** -25)).toBe(0); // half of the smallest subnormal: ties to zero
    expect(float32ToFloat16Bits(2 ** -25 * 1.5)).toBe(1);
    expect(toFloat16Array(Float32Array.of(1, 2, 3))).toHaveLength(4);
  });

  // The fp16 shaders need `shader-f16`, which SwiftShader lacks: this checks, on the CPU, that
  // weights rounded to half precision stay within the tolerance an fp16 backend declares.
  it('keeps a model with half-precision weights within the fp16 tolerance of the fp32 one', async () => {
    for (const { config } of conformanceConfigs) {
      const model = createRandomDecoder({ seed: 1234, config });
      const rounded: DecoderModel = {
        config,
        tensors: new Map(
          [...model.tensors].map(([name, tensor]) => [name, Float32Array.from(toFloat16Array(tensor).subarray(0, tensor.length), float16ToNumber)]),
        ),
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
