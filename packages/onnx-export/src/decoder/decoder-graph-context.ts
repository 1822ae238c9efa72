import type { DecoderConfig, QuantizedTensorV1 } from '@reward-lens/spec';
import { dequantizeRows } from '@reward-lens/spec/internal';
import type { GraphBuilder } from '../graph/graph-builder.js';
import { deferredFloatRows, type DeferredBytes } from '../graph/deferred-bytes.js';
import { matmulNBitsWeights, MICROSOFT_DOMAIN, NBITS_BLOCK } from './matmul-nbits.js';

/** What every node-building function of the decoder graph needs. */
export interface DecoderGraphContext {
  builder: GraphBuilder;
  config: DecoderConfig;
  tensors: ReadonlyMap<string, Float32Array>;
  /** Projection matrices written quantized (`MatMulNBits`), by name; any other tensor is float32. */
  quantized: ReadonlyMap<string, QuantizedTensorV1>;
  /** Every tensor the model holds quantized (a loader's): those not written so are widened to float32. */
  held: ReadonlyMap<string, QuantizedTensorV1>;
  /** What the graphs of one export share: the projections quantized from float32. */
  shared: ExportShared;
}

/** Computed once per export, whichever of its graphs (standard, read-positions) asks first; dropped with the export. */
export interface ExportShared {
  quantized?: Map<string, QuantizedTensorV1>;
}

export function newExportShared(): ExportShared {
  return {};
}

/**
 * A float32 tensor: the model's own (a view), or a quantized one widened (a table read by Gather,
 * which has no quantized form here) as it is written, a block of rows at a time, so the export
 * never holds the widened table whole.
 */
export function requireTensor(context: DecoderGraphContext, name: string): Float32Array | DeferredBytes {
  const tensor = context.tensors.get(name);
  if (tensor) return tensor;
  const held = context.held.get(name);
  if (!held) throw new Error(`tensor "${name}" is missing after validation`);
  return deferredFloatRows(held.rows, held.columns, (first, count, out) => dequantizeRows(held, first, count, out));
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
  const bias = biasName === undefined ? [] : [builder.sharedFloatInitializer(biasName, [shape.outFeatures], () => requireTensor(context, biasName))];
  const quantized = context.quantized.get(weightName);
  if (quantized) return quantizedLinearNodes(context, x, weightName, quantized, bias[0], shape, scope, output);
  const weight = builder.sharedFloatInitializer(weightName, [shape.outFeatures, shape.inFeatures], () => requireTensor(context, weightName));
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

/**
 * `x · Wᵀ (+ b)` for a quantized weight: onnxruntime's `MatMulNBits` (`x` of any leading shape,
 * `[..., K]` to `[..., N]`), float32 arithmetic over the dequantized weights (`accuracy_level` 1),
 * then the bias added.
 */
function quantizedLinearNodes(
  context: DecoderGraphContext,
  x: string,
  weightName: string,
  tensor: QuantizedTensorV1,
  bias: string | undefined,
  shape: { inFeatures: number; outFeatures: number },
  scope: string,
  output: string | undefined,
): string {
  const { builder } = context;
  const { bits, data, scales, blocks } = matmulNBitsWeights(tensor);
  const weight = builder.uint8Initializer(`${weightName}.nbits`, [shape.outFeatures, blocks, (NBITS_BLOCK * bits) / 8], data);
  const scale = builder.floatInitializer(`${weightName}.scales`, [shape.outFeatures * blocks], scales);
  const attributes = { K: shape.inFeatures, N: shape.outFeatures, bits, block_size: NBITS_BLOCK, accuracy_level: 1 };
  if (bias === undefined)
    return builder.node('MatMulNBits', [x, weight, scale], { scope, attributes, domain: MICROSOFT_DOMAIN, ...(output ? { output } : {}) });
  const products = builder.node('MatMulNBits', [x, weight, scale], { scope, attributes, domain: MICROSOFT_DOMAIN });
  return builder.node('Add', [products, bias], { scope, ...(output ? { output } : {}) });
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
