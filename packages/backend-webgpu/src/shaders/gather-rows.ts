import { gridEntryPoint, kernelBindings } from './kernel-prelude.js';
import { enableFor, weightBindings, weightReaders, weightValue, workgroupIndex, type WeightType } from './shader-types.js';

export interface GatherVariant {
  source: WeightType;
  target: 'f32' | 'f16';
}

export function gatherKey(variant: GatherVariant): string {
  return `gather-${variant.source}-${variant.target}`;
}

/**
 * `out[r, :] = source[indices[r], :]`, one workgroup per row, converting the element type:
 * the embedding lookup, hidden-state reads at requested positions, and the rows of an `lm`
 * head picked by `columns`.
 *
 * Parameters: `rows, width, sourceOffset, outputOffset` (in elements; a q8 or q4 source has none).
 * Bindings: params, indices, output, source (then its scales, for q8 and q4).
 */
export function gatherShader(variant: GatherVariant): string {
  const { source, target } = variant;
  return `${enableFor(source, target)}
${kernelBindings('rows: u32, width: u32, sourceOffset: u32, outputOffset: u32', `indices: u32, output: read_write ${target}, ${weightBindings(source, 'source')}`)}
${weightReaders(source, 'source')}

${gridEntryPoint(64)}
  let row = ${workgroupIndex};
  if (row >= params.rows) { return; }
  let sourceRow = indices[row];
  let sourceStart = params.sourceOffset + sourceRow * params.width;
  let outputStart = params.outputOffset + row * params.width;
  for (var i = local.x; i < params.width; i += 64u) {
    output[outputStart + i] = ${target}(${weightValue(source, 'source', 'sourceStart + i', 'sourceRow')});
  }
}
`;
}
