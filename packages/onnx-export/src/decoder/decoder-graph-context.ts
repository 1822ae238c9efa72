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

/**
 * `x · Wᵀ (+ b)` for a Hugging Face `[out, in]` weight, stored as it is (a view of the model's
 * own array, never a transposed copy): Gemm with `transB` over `x` flattened to rows, its bias as
 * Gemm's C, then back to `x`'s leading dimensions. Exporting thus holds no second copy of the
 * weights, and a runtime reads them in the layout the checkpoint has.
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
  const weight = builder.sharedFloatInitializer(weightName, [shape.outFeatures, shape.inFeatures], () => requireTensor(context, weightName));
  const bias = biasName === undefined ? [] : [builder.sharedFloatInitializer(biasName, [shape.outFeatures], () => requireTensor(context, biasName))];
  // x's rows and its output shapes are built once per x: q, k and v (gate and up) read the same x.
  const seen = flattened(builder);
  let flat = seen.get(x);
  if (flat === undefined) {
    flat = {
      rows: builder.node('Reshape', [x, builder.int64Constant([-1, shape.inFeatures])], { scope }),
      leading: builder.node('Shape', [x], { scope, attributes: { end: -1 } }),
      shapes: new Map(),
    };
    seen.set(x, flat);
  }
  const products = builder.node('Gemm', [flat.rows, weight, ...bias], { scope, attributes: { transB: 1 } });
  let outShape = flat.shapes.get(shape.outFeatures);
  if (outShape === undefined) {
    outShape = builder.node('Concat', [flat.leading, builder.int64Constant([shape.outFeatures])], { scope, attributes: { axis: 0 } });
    flat.shapes.set(shape.outFeatures, outShape);
  }
  return builder.node('Reshape', [products, outShape], { scope, ...(output ? { output } : {}) });
}

/** Per graph, each linear input's rows, leading dimensions and output shapes by width. */
const flattenedInputs = new WeakMap<GraphBuilder, Map<string, { rows: string; leading: string; shapes: Map<number, string> }>>();
function flattened(builder: GraphBuilder) {
  let seen = flattenedInputs.get(builder);
  if (seen === undefined) {
    seen = new Map();
    flattenedInputs.set(builder, seen);
  }
  return seen;
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
