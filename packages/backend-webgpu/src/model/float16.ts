const floatView = new Float32Array(1);
const bitsView = new Uint32Array(floatView.buffer);

/** The IEEE half-precision bits of `value`, rounded to nearest, ties to even (as a GPU converts). */
export function float32ToFloat16Bits(value: number): number {
  floatView[0] = value;
  const bits = bitsView[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    // A half subnormal (or zero): the value is (1.mantissa) × 2^(halfExponent - 14) in units of 2^-24.
    const shift = 14 - halfExponent;
    if (shift > 24) return sign;
    return sign | roundShift(mantissa | 0x800000, shift);
  }
  // Rounding may carry into the exponent (and up to infinity): adding to the combined bits does both.
  return sign | roundShift((halfExponent << 23) | mantissa, 13);
}

function roundShift(value: number, shift: number): number {
  const kept = value >>> shift;
  const remainder = value & ((1 << shift) - 1);
  const halfway = 1 << (shift - 1);
  return remainder > halfway || (remainder === halfway && (kept & 1) === 1) ? kept + 1 : kept;
}

/** A float32 tensor as half-precision bits, padded to an even length (GPU buffers are 4-byte aligned). */
export function toFloat16Array(values: Float32Array): Uint16Array {
  const halves = new Uint16Array(values.length + (values.length % 2));
  for (let index = 0; index < values.length; index++) halves[index] = float32ToFloat16Bits(values[index]!);
  return halves;
}
