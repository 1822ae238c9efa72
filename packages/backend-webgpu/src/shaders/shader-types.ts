/** How weight matrices are stored on the GPU; every computation runs in f32. */
export type WeightType = 'f32' | 'f16';

/** The WGSL preamble for a weight type (`enable f16;` needs the `shader-f16` feature). */
export function enableFor(...types: WeightType[]): string {
  return types.includes('f16') ? 'enable f16;\n' : '';
}

/** The flat index of a workgroup in a grid made by `gridFor` (WGSL expression). */
export const workgroupIndex = 'group.x + group.y * groups.x';
