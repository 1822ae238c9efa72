/**
 * How weight matrices are stored on the GPU; every computation runs in f32, each weight
 * widened (or dequantized to `fround(scale · q)`, as spec's `QuantizedTensorV1` defines it) as a
 * kernel loads it.
 *
 * - `f32`, `f16` (needs the `shader-f16` feature): one value per element.
 * - `bf16`: pairs in `u32` words (element `2j` in the low half, `2j + 1` in the high one, as the
 *   little-endian bytes lie), widened exactly by a shift. No feature needed.
 * - `q8`: signed bytes, four to a word, with a float scale per row (a `…Scales` buffer).
 * - `q4`: GGUF Q4_0 blocks of 32 weights (16 bytes: weight `j` in byte `j`'s low nibble, `j + 16`
 *   in its high one, stored `+ 8`), with a float scale per block. Rows are whole blocks.
 */
export type WeightType = 'f32' | 'f16' | 'bf16' | 'q8' | 'q4';

/** The weight types whose buffers come with a scales buffer. */
export function hasScales(type: WeightType): boolean {
  return type === 'q8' || type === 'q4';
}

/** The WGSL preamble for weight types (`enable f16;` needs the `shader-f16` feature). */
export function enableFor(...types: WeightType[]): string {
  return types.includes('f16') ? 'enable f16;\n' : '';
}

/** The WGSL element type of a buffer of `type` weights. */
export function storageOf(type: WeightType): string {
  return type === 'f32' || type === 'f16' ? type : 'u32';
}

/** The storage bindings of a weight buffer `name` of `type` for `kernelBindings`: itself, then its scales (q8, q4). */
export function weightBindings(type: WeightType, name: string): string {
  return `${name}: ${storageOf(type)}${hasScales(type) ? `, ${name}Scales: f32` : ''}`;
}

/**
 * A WGSL f32 expression for element `index` of `buffer`, a buffer of `type` weights, `row` the
 * matrix row it lies in (u32 expressions; `row` is read only by q8, whose scales are per row).
 */
export function weightValue(type: WeightType, buffer: string, index: string, row: string): string {
  if (type === 'f32') return `${buffer}[${index}]`;
  if (type === 'f16') return `f32(${buffer}[${index}])`;
  if (type === 'q8') return `${buffer}_q8(${index}, ${row})`;
  return `${buffer}_${type}(${index})`;
}

/**
 * The helpers `weightValue` calls: one function per buffer (WGSL passes no pointers to storage
 * buffers), declared after the bindings; nothing for f32 and f16.
 */
export function weightReaders(type: WeightType, ...buffers: string[]): string {
  const reader = (buffer: string): string => {
    switch (type) {
      case 'bf16':
        return `
fn ${buffer}_bf16(index: u32) -> f32 {
  let word = ${buffer}[index >> 1u];
  return bitcast<f32>(select(word << 16u, word & 0xffff0000u, (index & 1u) == 1u));
}`;
      case 'q8':
        return `
fn ${buffer}_q8(index: u32, row: u32) -> f32 {
  let q = extractBits(bitcast<i32>(${buffer}[index >> 2u]), (index & 3u) * 8u, 8u);
  return f32(q) * ${buffer}Scales[row];
}`;
      case 'q4':
        return `
fn ${buffer}_q4(index: u32) -> f32 {
  let block = index >> 5u;
  let within = index & 31u;
  let byteIndex = block * 16u + (within & 15u);
  let byte = (${buffer}[byteIndex >> 2u] >> ((byteIndex & 3u) * 8u)) & 0xffu;
  let nibble = select(byte & 15u, byte >> 4u, within >= 16u);
  return (f32(nibble) - 8.0) * ${buffer}Scales[block];
}`;
      default:
        return '';
    }
  };
  return buffers.map(reader).join('\n');
}

/** The flat index of a workgroup in a grid made by `gridFor` (WGSL expression). */
export const workgroupIndex = 'group.x + group.y * groups.x';
