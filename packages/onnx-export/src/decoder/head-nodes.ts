import { describeHead, FINAL_NORM_WEIGHT, unknownHeadOperation, type HeadOperation, type HeadSpec } from '@reward-lens/spec';
import type { GraphBuilder } from '../graph/graph-builder.js';
import { linearNodes, rmsNormNodes, type DecoderGraphContext } from './decoder-graph-context.js';

/** Norms already in the graph, by builder, input and weight: heads that start alike share one final norm. */
const sharedNorms = new WeakMap<GraphBuilder, Map<string, string>>();

/**
 * A head compiled into nodes from its description (`describeHead`): the final norm, the head's
 * hidden layers (Qwen2.5-Math-PRM's `score.0` → Relu), and the output projection, applied to
 * `input` (`[..., hidden]`, the residual stream before the final norm), its output named `output`
 * (`[..., width]`). Every operation of the description becomes nodes; none is dropped.
 *
 * A tied LM head multiplies by the embedding table through Gemm's `transB`, so the table is
 * stored once (a transposed copy of a 150k-token table would be another gigabyte).
 */
export function headNodes(context: DecoderGraphContext, head: HeadSpec, input: string, embeddingTable: string, output: string): string {
  const { operations } = describeHead(context.config, head);
  const scope = `/heads/${head.name}`;
  let x = input;
  operations.forEach((operation, index) => {
    x = operationNodes(context, operation, x, embeddingTable, scope, index === operations.length - 1 ? output : undefined);
  });
  return x;
}

function operationNodes(
  context: DecoderGraphContext,
  operation: HeadOperation,
  x: string,
  embeddingTable: string,
  scope: string,
  output: string | undefined,
): string {
  const { builder } = context;
  const named = output === undefined ? {} : { output };
  switch (operation.op) {
    case 'rms-norm': {
      const normed = sharedNorm(context, x, operation.weight);
      // A graph output needs its own name: an Identity when the norm itself is what is read.
      return output === undefined ? normed : builder.node('Identity', [normed], { scope, output });
    }
    case 'linear': {
      const { inFeatures, outFeatures } = operation;
      if (!operation.tiedToEmbeddings) return linearNodes(context, x, operation.weight, operation.bias, { inFeatures, outFeatures }, scope, output);
      const rows = builder.node('Reshape', [x, builder.int64Constant([-1, inFeatures])], { scope });
      const products = builder.node('Gemm', [rows, embeddingTable], { scope, attributes: { transB: 1 } });
      const leading = builder.node('Shape', [x], { scope, attributes: { end: -1 } });
      const shape = builder.node('Concat', [leading, builder.int64Constant([outFeatures])], { scope, attributes: { axis: 0 } });
      return builder.node('Reshape', [products, shape], { scope, ...named });
    }
    case 'relu':
      return builder.node('Relu', [x], { scope, ...named });
    default:
      return unknownHeadOperation(operation);
  }
}

function sharedNorm(context: DecoderGraphContext, x: string, weight: string): string {
  let norms = sharedNorms.get(context.builder);
  if (!norms) {
    norms = new Map();
    sharedNorms.set(context.builder, norms);
  }
  const key = `${x}\u0000${weight}`;
  let normed = norms.get(key);
  if (normed === undefined) {
    normed = rmsNormNodes(context, x, weight, weight === FINAL_NORM_WEIGHT ? '/model/norm' : `/norm/${weight}`);
    norms.set(key, normed);
  }
  return normed;
}
