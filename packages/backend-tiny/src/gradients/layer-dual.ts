import type { DecoderConfig } from '@reward-lens/spec';
import type { KernelSet } from '../kernels/kernel-set.js';
import { applyRotary, type RotaryTables } from '../model/rotary-embedding.js';
import type { BufferPool } from './buffer-pool.js';
import { attentionBackward, attentionForward, attentionTangent, type TokenSpan } from './attention-dual.js';
import type { LayerParameters } from './decoder-parameters.js';
import type { ParameterLookup } from './head-dual.js';
import { linearBackward, linearBackwardTangent, linearTangent, type Products } from './products.js';
import { rmsNormBackward, rmsNormBackwardTangent, rmsNormForward, rmsNormTangent } from './rms-norm-dual.js';
import { applyInverseRotary } from './rotary-dual.js';
import { gatedSiluBackward, gatedSiluForward, gatedSiluTangent } from './swiglu-dual.js';
import { addInto } from './tensor-ops.js';
import { allocateTape, type BackwardScratch, type LayerTape } from './layer-tape.js';

/** What the passes over one batch share. */
export interface PassContext {
  config: DecoderConfig;
  kernels: KernelSet;
  products: Products;
  rotary: RotaryTables;
  tokens: number;
  positionIds: Int32Array;
  spans: readonly TokenSpan[];
  /** Where the passes' large buffers come from (recycled between passes). */
  pool: BufferPool;
}

/**
 * The block's forward pass from the stream `input` (left as it is); returns the tape and the
 * stream after the block. Same kernels and operations as `model/decoder-layer.ts`, so the
 * values are the backend's own.
 */
export function layerForward(context: PassContext, parameters: LayerParameters, input: Float32Array): { tape: LayerTape; output: Float32Array } {
  const { config, kernels, rotary, tokens, positionIds } = context;
  const { hiddenSize, numHeads, numKvHeads, headDim, intermediateSize, rmsNormEps } = config;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;
  const tape = allocateTape(config, tokens, input, context.pool);
  const p = parameters;

  rmsNormForward(tape.normedInput, tape.inputRoots, input, p.inputNorm.values, tokens, hiddenSize, rmsNormEps);
  kernels.matmulTransposed(tape.queries, tape.normedInput, p.queryWeight.values, tokens, hiddenSize, queryWidth, p.queryBias?.values);
  kernels.matmulTransposed(tape.keys, tape.normedInput, p.keyWeight.values, tokens, hiddenSize, keyWidth, p.keyBias?.values);
  kernels.matmulTransposed(tape.values, tape.normedInput, p.valueWeight.values, tokens, hiddenSize, keyWidth, p.valueBias?.values);
  applyRotary(rotary, tape.queries, positionIds, tokens, numHeads);
  applyRotary(rotary, tape.keys, positionIds, tokens, numKvHeads);
  attentionForward(kernels, config, context.spans, tape.queries, tape.keys, tape.values, tape.attention);
  kernels.matmulTransposed(tape.middle, tape.attention, p.outputWeight.values, tokens, queryWidth, hiddenSize);
  addInto(tape.middle, input, tokens * hiddenSize);

  rmsNormForward(tape.normedMiddle, tape.middleRoots, tape.middle, p.postAttentionNorm.values, tokens, hiddenSize, rmsNormEps);
  kernels.matmulTransposed(tape.gate, tape.normedMiddle, p.gateWeight.values, tokens, hiddenSize, intermediateSize);
  kernels.matmulTransposed(tape.up, tape.normedMiddle, p.upWeight.values, tokens, hiddenSize, intermediateSize);
  gatedSiluForward(kernels, tape.activation, tape.gate, tape.up, tokens * intermediateSize);
  const output = context.pool.floats(tokens * hiddenSize, false);
  kernels.matmulTransposed(output, tape.activation, p.downWeight.values, tokens, intermediateSize, hiddenSize);
  addInto(output, tape.middle, tokens * hiddenSize);
  return { tape, output };
}

/** The block's forward tangent, given the tangent of its input stream and the parameters' tangents. */
export function layerTangent(
  context: PassContext,
  parameters: LayerParameters,
  tape: LayerTape,
  inputTangent: Float32Array,
  tangentOf: ParameterLookup,
): { tape: LayerTape; output: Float32Array } {
  const { config, products, rotary, tokens, positionIds } = context;
  const { hiddenSize, numHeads, numKvHeads, headDim, intermediateSize } = config;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;
  const t = allocateTape(config, tokens, inputTangent, context.pool);
  const p = parameters;
  const of = (tensor: { name: string } | undefined) => (tensor ? tangentOf(tensor.name) : null);

  rmsNormTangent(t.normedInput, t.inputRoots, tape.input, inputTangent, tape.inputRoots, p.inputNorm.values, of(p.inputNorm), tokens, hiddenSize);
  const projections = [
    [t.queries, p.queryWeight, p.queryBias, queryWidth],
    [t.keys, p.keyWeight, p.keyBias, keyWidth],
    [t.values, p.valueWeight, p.valueBias, keyWidth],
  ] as const;
  for (const [target, weight, bias, width] of projections) {
    linearTangent(products, target, tape.normedInput, t.normedInput, weight.values, of(weight), of(bias), tokens, hiddenSize, width);
  }
  applyRotary(rotary, t.queries, positionIds, tokens, numHeads);
  applyRotary(rotary, t.keys, positionIds, tokens, numKvHeads);
  attentionTangent(products, config, context.spans, tape.queries, tape.keys, tape.values, { queries: t.queries, keys: t.keys, values: t.values }, t.attention);
  linearTangent(products, t.middle, tape.attention, t.attention, p.outputWeight.values, of(p.outputWeight), null, tokens, queryWidth, hiddenSize);
  addInto(t.middle, inputTangent, tokens * hiddenSize);

  rmsNormTangent(
    t.normedMiddle,
    t.middleRoots,
    tape.middle,
    t.middle,
    tape.middleRoots,
    p.postAttentionNorm.values,
    of(p.postAttentionNorm),
    tokens,
    hiddenSize,
  );
  linearTangent(products, t.gate, tape.normedMiddle, t.normedMiddle, p.gateWeight.values, of(p.gateWeight), null, tokens, hiddenSize, intermediateSize);
  linearTangent(products, t.up, tape.normedMiddle, t.normedMiddle, p.upWeight.values, of(p.upWeight), null, tokens, hiddenSize, intermediateSize);
  gatedSiluTangent(t.activation, tape.gate, tape.up, t.gate, t.up, tokens * intermediateSize);
  const output = context.pool.floats(tokens * hiddenSize, false);
  linearTangent(products, output, tape.activation, t.activation, p.downWeight.values, of(p.downWeight), null, tokens, intermediateSize, hiddenSize);
  addInto(output, t.middle, tokens * hiddenSize);
  return { tape: t, output };
}

/** The tangent side of a block's backward pass. */
export interface LayerBackwardTangent {
  tape: LayerTape;
  /** The tangent of d(loss)/d(stream), updated in place like `dStream`. */
  dStream: Float32Array;
  tangentOf: ParameterLookup;
  gradientTangentOf: ParameterLookup;
  scratch: BackwardScratch;
}

/**
 * Backpropagates through one block in place: `dStream` holds d(loss)/d(the block's output) and
 * leaves holding d(loss)/d(its input). Parameter gradients are added into `gradientOf`'s
 * buffers (null: not wanted). With `tangent`, the same for the tangents (R-operator), each
 * tangent step run right after the primal step whose inputs it shares.
 */
export function layerBackward(
  context: PassContext,
  parameters: LayerParameters,
  tape: LayerTape,
  dStream: Float32Array,
  gradientOf: ParameterLookup,
  scratch: BackwardScratch,
  tangent?: LayerBackwardTangent,
): void {
  const { config, products, rotary, tokens, positionIds } = context;
  const { hiddenSize, numHeads, numKvHeads, headDim, intermediateSize } = config;
  const queryWidth = numHeads * headDim;
  const keyWidth = numKvHeads * headDim;
  const p = parameters;
  const s = scratch;
  const t = tangent;
  const gradient = (tensor: { name: string } | undefined) => (tensor ? gradientOf(tensor.name) : null);
  const tangentOf = (tensor: { name: string } | undefined) => (t && tensor ? t.tangentOf(tensor.name) : null);
  const gradientTangent = (tensor: { name: string } | undefined) => (t && tensor ? t.gradientTangentOf(tensor.name) : null);

  // MLP: out = mid + down(h).
  linearBackward(
    products,
    dStream,
    tape.activation,
    p.downWeight.values,
    tokens,
    intermediateSize,
    hiddenSize,
    s.dActivation,
    false,
    gradient(p.downWeight),
    null,
  );
  if (t) {
    const ts = t.scratch;
    linearBackwardTangent(
      products,
      dStream,
      t.dStream,
      tape.activation,
      t.tape.activation,
      p.downWeight.values,
      tangentOf(p.downWeight),
      tokens,
      intermediateSize,
      hiddenSize,
      ts.dActivation,
      false,
      gradientTangent(p.downWeight),
      null,
    );
  }
  gatedSiluBackward(
    context.kernels,
    s.dGate,
    s.dUp,
    s.dActivation,
    tape.gate,
    tape.up,
    tokens * intermediateSize,
    t
      ? { dhTangent: t.scratch.dActivation, gateTangent: t.tape.gate, upTangent: t.tape.up, dGateTangent: t.scratch.dGate, dUpTangent: t.scratch.dUp }
      : undefined,
  );
  for (const [dy, weight, accumulate] of [
    [s.dGate, p.gateWeight, false],
    [s.dUp, p.upWeight, true],
  ] as const) {
    linearBackward(products, dy, tape.normedMiddle, weight.values, tokens, hiddenSize, intermediateSize, s.dNormed, accumulate, gradient(weight), null);
  }
  if (t) {
    for (const [dy, dyTangent, weight, accumulate] of [
      [s.dGate, t.scratch.dGate, p.gateWeight, false],
      [s.dUp, t.scratch.dUp, p.upWeight, true],
    ] as const) {
      linearBackwardTangent(
        products,
        dy,
        dyTangent,
        tape.normedMiddle,
        t.tape.normedMiddle,
        weight.values,
        tangentOf(weight),
        tokens,
        hiddenSize,
        intermediateSize,
        t.scratch.dNormed,
        accumulate,
        gradientTangent(weight),
        null,
      );
    }
  }
  rmsNormBackward(dStream, gradient(p.postAttentionNorm), s.dNormed, tape.middle, tape.middleRoots, p.postAttentionNorm.values, tokens, hiddenSize);
  if (t) {
    rmsNormBackwardTangent(
      t.dStream,
      gradientTangent(p.postAttentionNorm),
      s.dNormed,
      t.scratch.dNormed,
      tape.middle,
      t.tape.middle,
      tape.middleRoots,
      t.tape.middleRoots,
      p.postAttentionNorm.values,
      tangentOf(p.postAttentionNorm),
      tokens,
      hiddenSize,
    );
  }

  // Attention: mid = x + o_proj(attention(rope(q), rope(k), v)).
  linearBackward(products, dStream, tape.attention, p.outputWeight.values, tokens, queryWidth, hiddenSize, s.dAttention, false, gradient(p.outputWeight), null);
  if (t) {
    linearBackwardTangent(
      products,
      dStream,
      t.dStream,
      tape.attention,
      t.tape.attention,
      p.outputWeight.values,
      tangentOf(p.outputWeight),
      tokens,
      queryWidth,
      hiddenSize,
      t.scratch.dAttention,
      false,
      gradientTangent(p.outputWeight),
      null,
    );
  }
  attentionBackward(
    context.kernels,
    products,
    config,
    context.spans,
    tape.queries,
    tape.keys,
    tape.values,
    s.dAttention,
    s.dQueries,
    s.dKeys,
    s.dValues,
    t
      ? {
          queries: t.tape.queries,
          keys: t.tape.keys,
          values: t.tape.values,
          dOutput: t.scratch.dAttention,
          dQueries: t.scratch.dQueries,
          dKeys: t.scratch.dKeys,
          dValues: t.scratch.dValues,
        }
      : undefined,
  );
  applyInverseRotary(rotary, s.dQueries, positionIds, tokens, numHeads);
  applyInverseRotary(rotary, s.dKeys, positionIds, tokens, numKvHeads);
  if (t) {
    applyInverseRotary(rotary, t.scratch.dQueries, positionIds, tokens, numHeads);
    applyInverseRotary(rotary, t.scratch.dKeys, positionIds, tokens, numKvHeads);
  }
  const projections = [
    [s.dQueries, t?.scratch.dQueries, p.queryWeight, p.queryBias, queryWidth, false],
    [s.dKeys, t?.scratch.dKeys, p.keyWeight, p.keyBias, keyWidth, true],
    [s.dValues, t?.scratch.dValues, p.valueWeight, p.valueBias, keyWidth, true],
  ] as const;
  for (const [dy, , weight, bias, width, accumulate] of projections) {
    linearBackward(products, dy, tape.normedInput, weight.values, tokens, hiddenSize, width, s.dNormed, accumulate, gradient(weight), gradient(bias));
  }
  if (t) {
    for (const [dy, dyTangent, weight, bias, width, accumulate] of projections) {
      linearBackwardTangent(
        products,
        dy,
        dyTangent!,
        tape.normedInput,
        t.tape.normedInput,
        weight.values,
        tangentOf(weight),
        tokens,
        hiddenSize,
        width,
        t.scratch.dNormed,
        accumulate,
        gradientTangent(weight),
        gradientTangent(bias),
      );
    }
  }
  rmsNormBackward(dStream, gradient(p.inputNorm), s.dNormed, tape.input, tape.inputRoots, p.inputNorm.values, tokens, hiddenSize);
  if (t) {
    rmsNormBackwardTangent(
      t.dStream,
      gradientTangent(p.inputNorm),
      s.dNormed,
      t.scratch.dNormed,
      tape.input,
      t.tape.input,
      tape.inputRoots,
      t.tape.inputRoots,
      p.inputNorm.values,
      tangentOf(p.inputNorm),
      tokens,
      hiddenSize,
    );
  }
}
