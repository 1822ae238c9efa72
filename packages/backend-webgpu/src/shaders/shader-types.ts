/**
 * How weight matrices are stored on the GPU; every computation runs in f32. `bf16` needs no
 * feature: its values are pairs in `u32` words (element `2j` in the low half, `2j + 1` in the
 * high one, as the little-endian bytes lie), widened exactly by a shift.
 */
export type WeightType = 'f32' | 'f16' | 'bf16';

/** The WGSL preamble for a weight type (`enable f16;` needs the `shader-f16` feature). */
export function enableFor(...types: WeightType[]): string {
  return types.includes('f16') ? 'enable f16;\n' : '';
}

/** The WGSL element type of a buffer of `type` weights. */
export function storageOf(type: WeightType): string {
  return type === 'bf16' ? 'u32' : type;
}

/** A WGSL f32 expression for element `index` (a u32 expression) of `buffer`, a buffer of `type` weights. */
export function weightValue(type: WeightType, buffer: string, index: string): string {
  if (type === 'f32') return `${buffer}[${index}]`;
  if (type === 'f16') return `f32(${buffer}[${index}])`;
  return `${buffer}_bf16(${index})`;
}

/**
 * The helpers `weightValue` calls for bf16 buffers: one function per buffer (WGSL passes no
 * pointers to storage buffers), declared after the bindings; nothing for other types.
 */
export function weightReaders(type: WeightType, ...buffers: string[]): string {
  if (type !== 'bf16') return '';
  return buffers
    .map(
      (buffer) => `
fn ${buffer}_bf16(index: u32) -> f32 {
  let word = ${buffer}[index >> 1u];
  return bitcast<f32>(select(word << 16u, word & 0xffff0000u, (index & 1u) == 1u));
}`,
    )
    .join('\n');
}

/** The flat index of a workgroup in a grid made by `gridFor` (WGSL expression). */
export const workgroupIndex = 'group.x + group.y * groups.x';
