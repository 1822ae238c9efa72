import type { DecoderConfig } from '@reward-lens/spec';
import type { GraphBuilder } from '../graph/graph-builder.js';

/** What every node-building function of the decoder graph needs. */
export interface DecoderGraphContext {
  builder: GraphBuilder;
  config: DecoderConfig;
  tensors: ReadonlyMap<string, Float32Array>;
}

export function requireTensor(context: DecoderGraphContext, name: string): Float32Array {
  const tensor = context.tensors.get(name);
  if (!tensor) throw new Error(`tensor "${name}" is missing after validation`);
  return tensor;
}

/** `[rows, columns]` row-major to `[columns, rows]`: a PyTorch `[out, in]` weight as MatMul's `[in, out]`. */
export function transposeMatrix(data: Float32Array, rows: number, columns: number): Float32Array {
  const out = new Float32Array(rows * columns);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) out[column * rows + row] = data[row * columns + column]!;
  }
  return out;
}

/**
 * `x · Wᵀ (+ b)` for a Hugging Face `[out, in]` weight, stored pre-transposed as `<name>_transposed`
 * so that the graph needs no Transpose at run time.
 */
export function linearNodes(
  context: DecoderGraphContext,
  x: string,
  weightName: string,
  biasName: string | undefined,
  shape: { inFeatures: number; outFeatures: number },
  scope: string,
  output?: string,
): string {
  const { builder } = context;
  const weight = builder.sharedFloatInitializer(`${weightName}_transposed`, [shape.inFeatures, shape.outFeatures], () =>
    transposeMatrix(requireTensor(context, weightName), shape.outFeatures, shape.inFeatures),
  );
  if (biasName === undefined) return builder.node('MatMul', [x, weight], { scope, ...(output ? { output } : {}) });
  const product = builder.node('MatMul', [x, weight], { scope });
  const bias = builder.sharedFloatInitializer(biasName, [shape.outFeatures], () => requireTensor(context, biasName));
  return builder.node('Add', [product, bias], { scope, ...(output ? { output } : {}) });
}

/**
 * RMSNorm as plain operators (Pow, ReduceMean, Add, Sqrt, Div, Mul), which every runtime has
 * (onnxruntime-web included); onnxruntime fuses the pattern into SimplifiedLayerNormalization itself.
 */
export function rmsNormNodes(context: DecoderGraphContext, x: string, weightName: string, scope: string): string {
  const { builder, config } = context;
  const squared = builder.node('Pow', [x, builder.floatConstant(2)], { scope });
  const meanSquare = builder.node('ReduceMean', [squared], { scope, attributes: { axes: [-1], keepdims: 1 } });
  const shifted = builder.node('Add', [meanSquare, builder.floatConstant(config.rmsNormEps)], { scope });
  const root = builder.node('Sqrt', [shifted], { scope });
  const normalized = builder.node('Div', [x, root], { scope });
  const weight = builder.sharedFloatInitializer(weightName, [config.hiddenSize], () => requireTensor(context, weightName));
  return builder.node('Mul', [normalized, weight], { scope });
}
