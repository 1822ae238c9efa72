import { unknownHeadOperation, type DecoderModel } from '@reward-lens/spec';
import { resolveHeadTensors, type ResolvedHeadStep } from '@reward-lens/spec/internal';

/** A head's operation with its tensors resolved, for the JavaScript readout. */
type ReadoutStep = ResolvedHeadStep<Float32Array>;

/** The heads compiled from their descriptions, to apply one to an inner layer's hidden state in JavaScript. */
export interface ReadoutWeights {
  hiddenSize: number;
  heads: Map<string, { width: number; steps: ReadoutStep[] }>;
}

/**
 * The readout of the decoder a graph was exported from (validated by the caller): each head's
 * description (`describeHead`: final norm, hidden layers, output projection) with its tensors.
 */
export function readoutWeightsOf(model: { config: DecoderModel['config']; tensors: ReadonlyMap<string, Float32Array> }): ReadoutWeights {
  const { config, tensors } = model;
  const tensor = (name: string) => {
    const found = tensors.get(name);
    if (!found) throw new Error(`tensor "${name}" is missing after validation`);
    return found;
  };
  const heads: ReadoutWeights['heads'] = new Map();
  for (const head of config.heads) {
    const { width, steps } = resolveHeadTensors(config, head, tensor);
    heads.set(head.name, { width, steps });
  }
  return { hiddenSize: config.hiddenSize, heads };
}

/**
 * A head applied to `count` hidden states `[count, hidden]`: every step of its description in
 * float64, each step's outputs rounded once to float32 (as backend-tiny computes them). With
 * `columns`, only those rows of the output projection.
 */
export function applyReadout(
  weights: ReadoutWeights,
  headName: string,
  hidden: Float32Array,
  count: number,
  columns: readonly number[] | undefined,
): Float32Array {
  const head = weights.heads.get(headName);
  if (!head) throw new Error(`no readout weights for head "${headName}"`);
  let values: Float32Array = hidden.slice(0, count * weights.hiddenSize);
  let width = weights.hiddenSize;
  head.steps.forEach((step, index) => {
    switch (step.op) {
      case 'rms-norm':
        values = rmsNormRows(values, count, width, step.weight, step.eps);
        break;
      case 'relu':
        values = values.map((value) => Math.max(value, 0));
        break;
      case 'linear': {
        const rows = index === head.steps.length - 1 && columns !== undefined ? columns : undefined;
        values = linearRows(values, count, step, rows);
        width = rows?.length ?? step.outFeatures;
        break;
      }
      default:
        unknownHeadOperation(step);
    }
  });
  return values;
}

function rmsNormRows(x: Float32Array, count: number, width: number, weight: Float32Array, eps: number): Float32Array {
  const out = new Float32Array(count * width);
  for (let token = 0; token < count; token++) {
    const offset = token * width;
    let sumOfSquares = 0;
    for (let index = 0; index < width; index++) sumOfSquares += x[offset + index]! * x[offset + index]!;
    const inverseRoot = 1 / Math.sqrt(sumOfSquares / width + eps);
    for (let index = 0; index < width; index++) out[offset + index] = x[offset + index]! * inverseRoot * weight[index]!;
  }
  return out;
}

function linearRows(x: Float32Array, count: number, step: Extract<ReadoutStep, { op: 'linear' }>, rows: readonly number[] | undefined): Float32Array {
  const { inFeatures, weight, bias } = step;
  const selected = rows ?? Array.from({ length: step.outFeatures }, (_, row) => row);
  const out = new Float32Array(count * selected.length);
  for (let token = 0; token < count; token++) {
    const offset = token * inFeatures;
    selected.forEach((row, index) => {
      let sum = bias?.[row] ?? 0;
      const start = row * inFeatures;
      for (let k = 0; k < inFeatures; k++) sum += x[offset + k]! * weight[start + k]!;
      out[token * selected.length + index] = sum;
    });
  }
  return out;
}
