import { enableFor, workgroupIndex, type WeightType } from './shader-types.js';

export interface GatherVariant {
  source: WeightType;
  target: WeightType;
}

export function gatherKey(variant: GatherVariant): string {
  return `gather-${variant.source}-${variant.target}`;
}

/**
 * `out[r, :] = source[indices[r], :]`, one workgroup per row, converting the element type:
 * the embedding lookup, hidden-state reads at requested positions, and the rows of an `lm`
 * head picked by `columns`.
 *
 * Parameters: `rows, width, sourceOffset, outputOffset` (in elements).
 * Bindings: params, indices, source, output.
 */
export function gatherShader(variant: GatherVariant): string {
  return `${enableFor(variant.source, variant.target)}
struct Params { rows: u32, width: u32, sourceOffset: u32, outputOffset: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> indices: array<u32>;
@group(0) @binding(2) var<storage, read> source: array<${variant.source}>;
@group(0) @binding(3) var<storage, read_write> output: array<${variant.target}>;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_id) local: vec3u) {
  let row = ${workgroupIndex};
  if (row >= params.rows) { return; }
  let sourceStart = params.sourceOffset + indices[row] * params.width;
  let outputStart = params.outputOffset + row * params.width;
  for (var i = local.x; i < params.width; i += 64u) {
    output[outputStart + i] = ${variant.target}(source[sourceStart + i]);
  }
}
`;
}
