import { unknownHeadOperation, type DecoderConfig, type HeadKindV1, type HeadSpec } from '@reward-lens/spec';
import { resolveHeadTensors, type ResolvedHeadStep } from '@reward-lens/spec/internal';
import type { KernelSet } from '../kernels/kernel-set.js';
import { rmsNorm } from './rms-norm.js';

/** A head's description compiled for these kernels: each operation with its tensors resolved. */
export type TinyHeadStep = ResolvedHeadStep<Float32Array>;

/** A head compiled from its description (`describeHead`): the operations to apply, in order. */
export interface HeadWeights {
  name: string;
  kind: HeadKindV1;
  width: number;
  steps: TinyHeadStep[];
}

/** Compiles `describeHead(config, head)`: every operation of the description, none dropped. */
export function compileHead(config: DecoderConfig, head: HeadSpec, tensor: (name: string) => Float32Array): HeadWeights {
  return resolveHeadTensors(config, head, (name) => tensor(name));
}

/**
 * Applies a compiled head to chosen tokens of a residual stream: the final norm, the head's
 * hidden layers, its output projection (at an inner layer as at the last). Only those tokens are
 * computed, and with `columns` only those rows of the output projection: an `lm` head over a
 * large vocabulary costs `columns.length` dot products per token, not the vocabulary.
 *
 * Returns `[tokenIndices.length, columns?.length ?? head.width]`, token-major.
 */
export function applyHead(
  kernels: KernelSet,
  head: HeadWeights,
  stream: Float32Array,
  hiddenSize: number,
  tokenIndices: Int32Array,
  columns: readonly number[] | undefined,
): Float32Array {
  const count = tokenIndices.length;
  // The chosen tokens' rows, gathered (or normed straight out of the stream when the head starts with its norm).
  let values = new Float32Array(count * hiddenSize);
  let width = hiddenSize;
  let first = 0;
  const start = head.steps[0];
  if (start?.op === 'rms-norm') {
    for (let index = 0; index < count; index++) {
      rmsNorm(values, index * hiddenSize, stream, tokenIndices[index]! * hiddenSize, start.weight, 1, hiddenSize, start.eps);
    }
    first = 1;
  } else {
    for (let index = 0; index < count; index++) {
      values.set(stream.subarray(tokenIndices[index]! * hiddenSize, (tokenIndices[index]! + 1) * hiddenSize), index * hiddenSize);
    }
  }
  const lastStep = head.steps.length - 1;
  for (let index = first; index <= lastStep; index++) {
    const step = head.steps[index]!;
    switch (step.op) {
      case 'rms-norm':
        rmsNorm(values, 0, values, 0, step.weight, count, width, step.eps);
        break;
      case 'relu':
        for (let element = 0; element < values.length; element++) if (values[element]! < 0) values[element] = 0;
        break;
      case 'linear': {
        const selected = index === lastStep && columns !== undefined ? selectRows(step, columns) : step;
        const out = new Float32Array(count * selected.outFeatures);
        kernels.matmulTransposed(out, values, selected.weight, count, step.inFeatures, selected.outFeatures, selected.bias);
        values = out;
        width = selected.outFeatures;
        break;
      }
      default:
        unknownHeadOperation(step);
    }
  }
  return values;
}

/** The output projection restricted to `columns` (rows of its weight and bias), in the order asked. */
function selectRows(step: Extract<TinyHeadStep, { op: 'linear' }>, columns: readonly number[]): Extract<TinyHeadStep, { op: 'linear' }> {
  const { inFeatures } = step;
  const weight = new Float32Array(columns.length * inFeatures);
  const bias = step.bias ? new Float32Array(columns.length) : undefined;
  columns.forEach((column, index) => {
    weight.set(step.weight.subarray(column * inFeatures, (column + 1) * inFeatures), index * inFeatures);
    if (bias) bias[index] = step.bias![column]!;
  });
  return { op: 'linear', weight, bias, inFeatures, outFeatures: columns.length };
}
