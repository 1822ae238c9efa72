const ROWS_PER_WORKGROUP = 64;

export function rmsNormKey(gather: boolean): string {
  return gather ? 'rms-norm-gather' : 'rms-norm';
}

/** Workgroups for `rows` rows. */
export function rmsNormWorkgroups(rows: number): number {
  return Math.ceil(rows / ROWS_PER_WORKGROUP);
}

/**
 * RMSNorm, one thread per row: `out = x / sqrt(mean(x²) + eps) * weight`, the sum of squares
 * taken in index order (deterministic). A row per thread needs no workgroup barrier, which is
 * what costs on software adapters; the norm is a small share of a layer's work on any adapter.
 * With `gather`, output row `r` normalises input row `indices[r]`: the final norm applied only
 * to the positions a read asks for.
 *
 * Parameters: `rows, width, inputOffset, outputOffset, eps (f32)`.
 * Bindings: params, input, weight, output, then `indices` when gathering.
 */
export function rmsNormShader(gather: boolean): string {
  return `
struct Params { rows: u32, width: u32, inputOffset: u32, outputOffset: u32, eps: f32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
${gather ? '@group(0) @binding(4) var<storage, read> indices: array<u32>;' : ''}

@compute @workgroup_size(${ROWS_PER_WORKGROUP}, 1, 1)
fn main(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_id) local: vec3u) {
  let row = (group.x + group.y * groups.x) * ${ROWS_PER_WORKGROUP}u + local.x;
  if (row >= params.rows) { return; }
  let width = params.width;
  let sourceStart = params.inputOffset + ${gather ? 'indices[row]' : 'row'} * width;
  let outputStart = params.outputOffset + row * width;
  var sum = 0.0;
  for (var i = 0u; i < width; i++) {
    let value = input[sourceStart + i];
    sum = sum + value * value;
  }
  let inverseRoot = 1.0 / sqrt(sum / f32(width) + params.eps);
  for (var i = 0u; i < width; i++) {
    output[outputStart + i] = input[sourceStart + i] * inverseRoot * weight[i];
  }
}
`;
}
