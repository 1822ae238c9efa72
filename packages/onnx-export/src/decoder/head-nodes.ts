import { headWidth, type HeadSpec } from '@reward-lens/core/internal';
import { linearNodes, type DecoderGraphContext } from './decoder-graph-context.js';

/**
 * A head applied to the final-normed stream `[batch, positions, hidden]`, its output named `output`.
 * `leadingShape` is the int64 tensor `[batch, positions]` (every position, or the read positions).
 * A tied LM head multiplies by the embedding table through Gemm's `transB`, so the table is
 * stored once (a transposed copy of a 150k-token table would be another gigabyte).
 */
export function headNodes(context: DecoderGraphContext, head: HeadSpec, normed: string, embeddingTable: string, output: string, leadingShape: string): string {
  const { builder, config } = context;
  const { hiddenSize } = config;
  const scope = `/heads/${head.name}`;
  const width = headWidth(config, head);
  if (head.kind === 'lm') {
    if (!config.tieWordEmbeddings)
      return linearNodes(context, normed, 'lm_head.weight', undefined, { inFeatures: hiddenSize, outFeatures: width }, scope, output);
    const rows = builder.node('Reshape', [normed, builder.int64Constant([-1, hiddenSize])], { scope });
    const products = builder.node('Gemm', [rows, embeddingTable], { scope, attributes: { transB: 1 } });
    const shape = builder.node('Concat', [leadingShape, builder.int64Constant([width])], { scope, attributes: { axis: 0 } });
    return builder.node('Reshape', [products, shape], { scope, output });
  }
  return linearNodes(context, normed, head.weight, head.bias, { inFeatures: hiddenSize, outFeatures: width }, scope, output);
}
