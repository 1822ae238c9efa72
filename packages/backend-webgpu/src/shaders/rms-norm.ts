import { gridEntryPoint, kernelBindings } from './kernel-prelude.js';
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
${kernelBindings(
  'rows: u32, width: u32, inputOffset: u32, outputOffset: u32, eps: f32, pad0: u32, pad1: u32, pad2: u32',
  `input: f32, weight: f32, output: read_write f32${gather ? ', indices: u32' : ''}`,
)}

${gridEntryPoint(ROWS_PER_WORKGROUP)}
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
