import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bfloat16ToFloat32Bits, float16ToFloat32Bits, toBfloat16Bits, toFloat16Bits } from '@reward-lens/spec/internal';
import { widenBfloat16Into, widenFloat16Into } from './half-float.js';

// spec's 16-bit conversions (which backends hold weights in) against this package's widening,
// written apart (a table built from the format's definition), for every 16-bit pattern.
const all = Uint16Array.from({ length: 65536 }, (_, bits) => bits);
const widened = (widen: typeof widenFloat16Into) => {
  const target = new Float32Array(65536);
  widen(target, 0, new Uint8Array(all.buffer), 0, 65536);
  return new Uint32Array(target.buffer);
};
const isNan = (bits: number, exponentMask: number, mantissaMask: number) => (bits & exponentMask) === exponentMask && (bits & mantissaMask) !== 0;
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
const fromBits = (bits: number) => {
  f32Bits[0] = bits;
  return f32[0]!;
};

for (const [format, widen, toFloat32Bits, narrow, exponentMask, mantissaMask] of [
  ['fp16', widenFloat16Into, float16ToFloat32Bits, toFloat16Bits, 0x7c00, 0x3ff],
  ['bf16', widenBfloat16Into, bfloat16ToFloat32Bits, toBfloat16Bits, 0x7f80, 0x7f],
] as const) {
  describe(`${format} conversions`, () => {
    const table = widened(widen);

    it('widen every pattern to the bits the loader widens it to (NaN payloads included)', () => {
      for (let bits = 0; bits < 65536; bits++) expect(toFloat32Bits(bits)).toBe(table[bits]);
    });

    it('narrow every widened value back to its own pattern (NaN stays a NaN)', () => {
      for (let bits = 0; bits < 65536; bits++) {
        const back = narrow(fromBits(table[bits]!));
        if (isNan(bits, exponentMask, mantissaMask)) expect(isNan(back, exponentMask, mantissaMask)).toBe(true);
        else expect(back).toBe(bits);
      }
    });

    it('narrow any float32 to the nearest value, ties to the even pattern', () => {
      fc.assert(
        fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (value) => {
          const chosen = narrow(value);
          if ((chosen & 0x7fff) === exponentMask) {
            // Infinite: only past the largest finite value by half its step, as IEEE rounding has it.
            const largest = fromBits(toFloat32Bits(exponentMask - 1));
            const step = largest - fromBits(toFloat32Bits(exponentMask - 2));
            expect(Math.abs(value)).toBeGreaterThanOrEqual(largest + step / 2);
            return;
          }
          const distance = (bits: number) => Math.abs(fromBits(toFloat32Bits(bits)) - value);
          // Compare with the neighbouring patterns of the same sign (infinity as the last step).
          for (const neighbour of [chosen - 1, chosen + 1]) {
            if ((neighbour & 0x7fff) > exponentMask || neighbour < 0 || (neighbour ^ chosen) & 0x8000) continue;
            const here = distance(chosen);
            const there = distance(neighbour);
            expect(here).toBeLessThanOrEqual(there);
            if (here === there && Number.isFinite(here)) expect(chosen & 1).toBe(0);
          }
        }),
        { numRuns: 5000 },
      );
    });
  });
}
