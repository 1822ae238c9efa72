import { gridEntryPoint, kernelBindings } from './kernel-prelude.js';
import { enableFor, storageOf, weightReaders, weightValue, workgroupIndex, type WeightType } from './shader-types.js';

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
  const { source, target } = variant;
  if (target === 'bf16') throw new Error('bf16 rows are read as f32, never copied as bf16');
  return `${enableFor(source, target)}
${kernelBindings('rows: u32, width: u32, sourceOffset: u32, outputOffset: u32', `indices: u32, source: ${storageOf(source)}, output: read_write ${target}`)}
${weightReaders(source, 'source')}

${gridEntryPoint(64)}
  let row = ${workgroupIndex};
  if (row >= params.rows) { return; }
  let sourceStart = params.sourceOffset + indices[row] * params.width;
  let outputStart = params.outputOffset + row * params.width;
  for (var i = local.x; i < params.width; i += 64u) {
    output[outputStart + i] = ${target}(${weightValue(source, 'source', 'sourceStart + i')});
  }
}
`;
}
