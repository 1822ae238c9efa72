import { toFloat16Bits } from '@reward-lens/spec/internal';

/** A float32 tensor as half-precision bits (rounded to nearest, ties to even, as a GPU converts), padded to an even length (GPU buffers are 4-byte aligned). */
export function toFloat16Array(values: Float32Array): Uint16Array {
  const halves = new Uint16Array(values.length + (values.length % 2));
  for (let index = 0; index < values.length; index++) halves[index] = toFloat16Bits(values[index]!);
  return halves;
}
