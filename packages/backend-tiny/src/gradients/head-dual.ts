import type { KernelSet } from '../kernels/kernel-set.js';
import type { DifferentiableHead, NamedTensor } from './differentiable-head.js';
import { addRowSums, linearBackward, linearBackwardTangent, linearTangent, type Products } from './products.js';
import { rmsNormBackward, rmsNormBackwardTangent, rmsNormForward, rmsNormTangent } from './rms-norm-dual.js';

/** Looks up a parameter's gradient (or tangent) buffer by name; null when it is not wanted (or zero). */
export type ParameterLookup = (name: string) => Float32Array | null;

/** What a head read keeps from the forward pass for the backward pass. */
export interface HeadTape {
  tokenIndices: Int32Array;
  /** The read tokens' residual-stream states, `[count, hidden]`. */
  source: Float32Array;
  /** The final-normed states of the read tokens, `[count, hidden]`, and their norms' `r`. */
  normed: Float32Array;
  roots: Float64Array;
  /** The hidden layer's pre-activations, when the head has one. */
  hiddenPre: Float32Array | undefined;
  /** What the projection reads: `relu(hiddenPre)` or `normed`. */
  input: Float32Array;
  /** The projection's rows (only the read columns) and bias. */
  weight: Float32Array;
  bias: Float32Array | undefined;
  columns: readonly number[] | undefined;
  width: number;
  output: Float32Array;
}

/** Tangents of a head read's intermediate values. */
export interface HeadTangentTape {
  gathered: Float32Array | null;
  normed: Float32Array;
  roots: Float64Array;
  hiddenPre: Float32Array | undefined;
  input: Float32Array;
  output: Float32Array;
}

function gatherTokens(stream: Float32Array, tokenIndices: Int32Array, hiddenSize: number): Float32Array {
  const gathered = new Float32Array(tokenIndices.length * hiddenSize);
  tokenIndices.forEach((token, index) => gathered.set(stream.subarray(token * hiddenSize, (token + 1) * hiddenSize), index * hiddenSize));
  return gathered;
}

function scatterAddTokens(stream: Float32Array, values: Float32Array, tokenIndices: Int32Array, hiddenSize: number): void {
  tokenIndices.forEach((token, index) => {
    const target = token * hiddenSize;
    const source = index * hiddenSize;
    for (let offset = 0; offset < hiddenSize; offset++) stream[target + offset] = stream[target + offset]! + values[source + offset]!;
  });
}

function selectRows(values: Float32Array, columns: readonly number[] | undefined, width: number): Float32Array {
  if (columns === undefined) return values;
  const selected = new Float32Array(columns.length * width);
  columns.forEach((column, index) => selected.set(values.subarray(column * width, (column + 1) * width), index * width));
  return selected;
}

function selectEntries(values: Float32Array, columns: readonly number[] | undefined): Float32Array {
  return columns === undefined ? values : Float32Array.from(columns, (column) => values[column]!);
}

/** Adds `rows` (one per read column) into those rows of `target` (all rows when there are no columns). */
function scatterAddRows(target: Float32Array, rows: Float32Array, columns: readonly number[] | undefined, width: number): void {
  if (columns === undefined) {
    for (let index = 0; index < rows.length; index++) target[index] = target[index]! + rows[index]!;
    return;
  }
  columns.forEach((column, index) => {
    for (let offset = 0; offset < width; offset++) target[column * width + offset] = target[column * width + offset]! + rows[index * width + offset]!;
  });
}

/**
 * The head's forward pass over chosen tokens of a residual stream, as the model's `applyHead`
 * computes it (same operations, same values), keeping what the backward pass needs.
 */
export function headForward(
  kernels: KernelSet,
  head: DifferentiableHead,
  finalNorm: Float32Array,
  eps: number,
  stream: Float32Array,
  hiddenSize: number,
  tokenIndices: Int32Array,
  columns: readonly number[] | undefined,
): HeadTape {
  const count = tokenIndices.length;
  const normed = new Float32Array(count * hiddenSize);
  const roots = new Float64Array(count);
  const source = gatherTokens(stream, tokenIndices, hiddenSize);
  rmsNormForward(normed, roots, source, finalNorm, count, hiddenSize, eps);
  let input = normed;
  let hiddenPre: Float32Array | undefined;
  if (head.hidden) {
    hiddenPre = new Float32Array(count * hiddenSize);
    kernels.matmulTransposed(hiddenPre, normed, head.hidden.weight.values, count, hiddenSize, hiddenSize, head.hidden.bias?.values);
    input = hiddenPre.map((value) => Math.max(value, 0));
  }
  const width = columns?.length ?? head.width;
  const weight = selectRows(head.weight.values, columns, hiddenSize);
  const bias = head.bias ? selectEntries(head.bias.values, columns) : undefined;
  const output = new Float32Array(count * width);
  kernels.matmulTransposed(output, input, weight, count, hiddenSize, width, bias);
  return { tokenIndices, source, normed, roots, hiddenPre, input, weight, bias, columns, width, output };
}

/** The forward tangent of a head read, given the stream's tangent and the parameters' tangents. */
export function headTangent(
  products: Products,
  head: DifferentiableHead,
  tape: HeadTape,
  finalNorm: NamedTensor,
  streamTangent: Float32Array | null,
  hiddenSize: number,
  tangentOf: ParameterLookup,
): HeadTangentTape {
  const count = tape.tokenIndices.length;
  const gathered = streamTangent ? gatherTokens(streamTangent, tape.tokenIndices, hiddenSize) : null;
  const normed = new Float32Array(count * hiddenSize);
  const roots = new Float64Array(count);
  rmsNormTangent(normed, roots, tape.source, gathered, tape.roots, finalNorm.values, tangentOf(finalNorm.name), count, hiddenSize);
  let input = normed;
  let hiddenPre: Float32Array | undefined;
  if (head.hidden && tape.hiddenPre) {
    hiddenPre = new Float32Array(count * hiddenSize);
    const { weight, bias } = head.hidden;
    linearTangent(
      products,
      hiddenPre,
      tape.normed,
      normed,
      weight.values,
      tangentOf(weight.name),
      bias ? tangentOf(bias.name) : null,
      count,
      hiddenSize,
      hiddenSize,
    );
    input = hiddenPre.map((value, index) => (tape.hiddenPre![index]! > 0 ? value : 0));
  }
  const weightTangent = tangentOf(head.weight.name);
  const biasTangent = head.bias ? tangentOf(head.bias.name) : null;
  const output = new Float32Array(count * tape.width);
  linearTangent(
    products,
    output,
    tape.input,
    input,
    tape.weight,
    weightTangent ? selectRows(weightTangent, tape.columns, hiddenSize) : null,
    biasTangent ? selectEntries(biasTangent, tape.columns) : null,
    count,
    hiddenSize,
    tape.width,
  );
  return { gathered, normed, roots, hiddenPre, input, output };
}

/** What the tangent of a head read's backward pass needs and writes. */
export interface HeadBackwardTangent {
  tape: HeadTangentTape;
  /** The tangent of d(loss)/d(output), or null for zero. */
  dOutput: Float32Array | null;
  /** Receives the tangent of d(loss)/d(stream) at the read tokens (added). */
  dStream: Float32Array;
  tangentOf: ParameterLookup;
  /** Tangents of the parameters' gradients (added), or null when not wanted. */
  gradientTangentOf: ParameterLookup;
}

/**
 * The backward pass of a head read: adds d(loss)/d(stream) at the read tokens into `dStream`
 * and the head's and final norm's parameter gradients into `gradientOf`'s buffers; with
 * `tangent`, the same for the tangents.
 */
export function headBackward(
  products: Products,
  head: DifferentiableHead,
  tape: HeadTape,
  finalNorm: NamedTensor,
  dOutput: Float32Array,
  dStream: Float32Array,
  hiddenSize: number,
  gradientOf: ParameterLookup,
  tangent?: HeadBackwardTangent,
): void {
  const count = tape.tokenIndices.length;
  const { width, columns } = tape;
  const weightGradient = gradientOf(head.weight.name);
  const biasGradient = head.bias ? gradientOf(head.bias.name) : null;
  const dInput = new Float32Array(count * hiddenSize);
  const dWeight = weightGradient ? new Float32Array(width * hiddenSize) : null;
  linearBackward(products, dOutput, tape.input, tape.weight, count, hiddenSize, width, dInput, false, dWeight, null);
  if (weightGradient && dWeight) scatterAddRows(weightGradient, dWeight, columns, hiddenSize);
  if (biasGradient) {
    const sums = new Float32Array(width);
    addRowSums(sums, dOutput, count, width);
    scatterAddRows(biasGradient, sums, columns, 1);
  }

  let dInputTangent: Float32Array | null = null;
  const t = tangent;
  if (t) {
    const weightTangent = t.tangentOf(head.weight.name);
    const weightGradientTangent = t.gradientTangentOf(head.weight.name);
    const biasGradientTangent = head.bias ? t.gradientTangentOf(head.bias.name) : null;
    dInputTangent = new Float32Array(count * hiddenSize);
    const dWeightTangent = weightGradientTangent ? new Float32Array(width * hiddenSize) : null;
    linearBackwardTangent(
      products,
      dOutput,
      t.dOutput,
      tape.input,
      t.tape.input,
      tape.weight,
      weightTangent ? selectRows(weightTangent, columns, hiddenSize) : null,
      count,
      hiddenSize,
      width,
      dInputTangent,
      false,
      dWeightTangent,
      null,
    );
    if (weightGradientTangent && dWeightTangent) scatterAddRows(weightGradientTangent, dWeightTangent, columns, hiddenSize);
    if (biasGradientTangent && t.dOutput) {
      const sums = new Float32Array(width);
      addRowSums(sums, t.dOutput, count, width);
      scatterAddRows(biasGradientTangent, sums, columns, 1);
    }
  }

  let dNormed = dInput;
  let dNormedTangent = dInputTangent;
  if (head.hidden && tape.hiddenPre) {
    const pre = tape.hiddenPre;
    const dPre = dInput.map((value, index) => (pre[index]! > 0 ? value : 0));
    const { weight, bias } = head.hidden;
    dNormed = new Float32Array(count * hiddenSize);
    linearBackward(
      products,
      dPre,
      tape.normed,
      weight.values,
      count,
      hiddenSize,
      hiddenSize,
      dNormed,
      false,
      gradientOf(weight.name),
      bias ? gradientOf(bias.name) : null,
    );
    if (t && dInputTangent) {
      // relu'' = 0: the mask is fixed, so the tangent of dPre is the masked tangent of dInput.
      const dPreTangent = dInputTangent.map((value, index) => (pre[index]! > 0 ? value : 0));
      dNormedTangent = new Float32Array(count * hiddenSize);
      linearBackwardTangent(
        products,
        dPre,
        dPreTangent,
        tape.normed,
        t.tape.normed,
        weight.values,
        t.tangentOf(weight.name),
        count,
        hiddenSize,
        hiddenSize,
        dNormedTangent,
        false,
        t.gradientTangentOf(weight.name),
        bias ? t.gradientTangentOf(bias.name) : null,
      );
    }
  }

  const dSource = new Float32Array(count * hiddenSize);
  rmsNormBackward(dSource, gradientOf(finalNorm.name), dNormed, tape.source, tape.roots, finalNorm.values, count, hiddenSize);
  scatterAddTokens(dStream, dSource, tape.tokenIndices, hiddenSize);
  if (t) {
    const dSourceTangent = new Float32Array(count * hiddenSize);
    rmsNormBackwardTangent(
      dSourceTangent,
      t.gradientTangentOf(finalNorm.name),
      dNormed,
      dNormedTangent,
      tape.source,
      t.tape.gathered,
      tape.roots,
      t.tape.roots,
      finalNorm.values,
      t.tangentOf(finalNorm.name),
      count,
      hiddenSize,
    );
    scatterAddTokens(t.dStream, dSourceTangent, tape.tokenIndices, hiddenSize);
  }
}

/** The stream rows of a hidden-state read, as `[count, hidden]`; and its backward: adding into the stream. */
export function readHiddenStates(stream: Float32Array, tokenIndices: Int32Array, hiddenSize: number): Float32Array {
  return gatherTokens(stream, tokenIndices, hiddenSize);
}

export function hiddenStatesBackward(dStream: Float32Array, dValues: Float32Array, tokenIndices: Int32Array, hiddenSize: number): void {
  scatterAddTokens(dStream, dValues, tokenIndices, hiddenSize);
}
