/* Float32 to and from the 16-bit floats weights are stored in: bfloat16 (the top half of a float32) and IEEE half (fp16). */

const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** The bfloat16 nearest `value` (round to nearest, ties to even), as its 16 bits; NaN stays NaN. */
export function toBfloat16Bits(value: number): number {
  scratch[0] = value;
  const bits = scratchBits[0]!;
  if ((bits & 0x7fffffff) > 0x7f800000) return (bits >>> 16) | 0x40;
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

/** The IEEE half nearest `value` (round to nearest, ties to even; past 65504 it is infinite), as its 16 bits; NaN stays NaN. */
export function toFloat16Bits(value: number): number {
  scratch[0] = value;
  const bits = scratchBits[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 | (mantissa >>> 13) : 0);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;
    // A subnormal half: the mantissa with its implicit one, shifted down with rounding.
    mantissa |= 0x800000;
    const shift = 14 - halfExponent;
    let half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1) === 1)) half++;
    return sign | half;
  }
  let half = (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa steps the exponent up, as rounding should (to infinity past 65504).
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++;
  return sign | half;
}

/** The float32 bits of a bfloat16. */
export function bfloat16ToFloat32Bits(half: number): number {
  return (half << 16) >>> 0;
}

/** The float32 bits of an IEEE half: exact for every half, subnormals, infinities and NaN payloads included. */
export function float16ToFloat32Bits(half: number): number {
  const sign = (half & 0x8000) << 16;
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0x1f) return (sign | 0x7f800000 | (mantissa << 13)) >>> 0;
  if (exponent !== 0) return (sign | ((exponent + 127 - 15) << 23) | (mantissa << 13)) >>> 0;
  if (mantissa === 0) return sign >>> 0;
  scratch[0] = mantissa * 2 ** -24;
  return (sign | scratchBits[0]!) >>> 0;
}
