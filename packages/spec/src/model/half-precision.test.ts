import { describe, expect, it } from 'vitest';
import { toFloat16Bits } from './half-precision.js';

// The value of a half, from the format's definition (written apart from the code under test).
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
      const back = toFloat16Bits(value);
      if (Number.isNaN(value) ? (back & 0x7c00) !== 0x7c00 || (back & 0x3ff) === 0 : back !== bits) wrong.push(bits);
    }
    expect(wrong).toEqual([]);
  });

  it('rounds to nearest, ties to even, and overflows to infinity', () => {
    expect(toFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // halfway, even stays
    expect(toFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // halfway, odd rounds up
    expect(toFloat16Bits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01);
    expect(toFloat16Bits(65520)).toBe(0x7c00);
    expect(toFloat16Bits(-1e10)).toBe(0xfc00);
    expect(toFloat16Bits(2 ** -25)).toBe(0); // half of the smallest subnormal: ties to zero
    expect(toFloat16Bits(2 ** -25 * 1.5)).toBe(1);
  });
});
