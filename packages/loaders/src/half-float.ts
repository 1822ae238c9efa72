/**
 * IEEE half precision (F16) and bfloat16 (BF16) to float32. Both widen exactly: every F16 and
 * BF16 value, subnormals, infinities and NaN payloads included, has a float32 spelling.
 */

let float16Table: Float32Array | undefined;

/** All 65,536 F16 bit patterns as float32, built on first use (256 KiB). */
function float16ToFloat32Table(): Float32Array {
  if (float16Table) return float16Table;
  const bits = new Uint32Array(65536);
  for (let half = 0; half < 65536; half++) {
    const sign = (half & 0x8000) << 16;
    const exponent = (half >> 10) & 0x1f;
    const mantissa = half & 0x3ff;
    if (exponent === 0x1f) {
      bits[half] = sign | 0x7f800000 | (mantissa << 13);
    } else if (exponent !== 0) {
      bits[half] = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa !== 0) {
      // A subnormal: mantissa × 2⁻²⁴, which is a normal float32 and exact.
      const view = new Float32Array(1);
      view[0] = mantissa * 2 ** -24;
      bits[half] = sign | new Uint32Array(view.buffer)[0]!;
    } else {
      bits[half] = sign;
    }
  }
  float16Table = new Float32Array(bits.buffer);
  return float16Table;
}

/** Widens `count` little-endian F16 values starting at `byteOffset`. */
export function readFloat16LittleEndian(bytes: Uint8Array, byteOffset: number, count: number): Float32Array {
  const values = new Float32Array(count);
  widenFloat16Into(values, 0, bytes, byteOffset, count);
  return values;
}

/** Widens `count` little-endian BF16 values: a BF16 is the top half of a float32. */
export function readBfloat16LittleEndian(bytes: Uint8Array, byteOffset: number, count: number): Float32Array {
  const values = new Float32Array(count);
  widenBfloat16Into(values, 0, bytes, byteOffset, count);
  return values;
}

/**
 * Widens F16 values into `target` from `targetOffset`, bit-exactly (as bit patterns: copying through
 * JavaScript numbers may canonicalize NaN payloads).
 */
export function widenFloat16Into(target: Float32Array, targetOffset: number, bytes: Uint8Array, byteOffset: number, count: number): void {
  const table = new Uint32Array(float16ToFloat32Table().buffer);
  const bits = new Uint32Array(target.buffer, target.byteOffset + targetOffset * 4, count);
  for (let index = 0, offset = byteOffset; index < count; index++, offset += 2) bits[index] = table[bytes[offset]! | (bytes[offset + 1]! << 8)]!;
}

/** Widens BF16 values into `target` from `targetOffset`, bit-exactly. */
export function widenBfloat16Into(target: Float32Array, targetOffset: number, bytes: Uint8Array, byteOffset: number, count: number): void {
  const bits = new Uint32Array(target.buffer, target.byteOffset + targetOffset * 4, count);
  for (let index = 0, offset = byteOffset; index < count; index++, offset += 2) bits[index] = ((bytes[offset]! | (bytes[offset + 1]! << 8)) << 16) >>> 0;
}
