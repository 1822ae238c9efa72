import { describeHead, unknownHeadOperation, type DecoderModel, type HeadSpec } from '@reward-lens/spec';

/** A head applied to one hidden state; `columns` keeps only those outputs of its last layer. */
export type CompiledHead = (state: Float32Array, columns?: readonly number[]) => Float32Array;

/**
 * Compiles the head's description (`describeHead`: the final norm, any hidden layers with their
 * activation, the output projection). Walking the operations, with an exhaustive switch, is how a
 * backend makes sure it applies every part of every head, including ones added later.
 */
export function compileHead(model: DecoderModel, head: HeadSpec): CompiledHead {
  const tensor = (name: string) => model.tensors.get(name)!;
  const { operations } = describeHead(model.config, head);
  const steps = operations.map((operation, index) => {
    const last = index === operations.length - 1;
    switch (operation.op) {
      case 'rms-norm': {
        const weight = tensor(operation.weight);
        return (x: Float32Array) => rmsNorm(x, weight, operation.eps);
      }
      case 'linear': {
        const weight = tensor(operation.weight);
        const bias = operation.bias === undefined ? undefined : tensor(operation.bias);
        return (x: Float32Array, columns?: readonly number[]) => linear(x, weight, bias, operation.outFeatures, last ? columns : undefined);
      }
      case 'relu':
        return (x: Float32Array) => x.map((value) => Math.max(value, 0));
      default:
        return unknownHeadOperation(operation);
    }
  });
  return (state, columns) => steps.reduce((x, step) => step(x, columns), state);
}

/** `x / sqrt(mean(x²) + eps) * weight`. */
export function rmsNorm(x: Float32Array, weight: Float32Array, eps: number): Float32Array {
  let sumOfSquares = 0;
  for (const value of x) sumOfSquares += value * value;
  const scale = 1 / Math.sqrt(sumOfSquares / x.length + eps);
  return x.map((value, index) => value * scale * weight[index]!);
}

/** `weight · x (+ bias)` for a PyTorch `[out, in]` weight; with `rows`, only those outputs. */
export function linear(x: Float32Array, weight: Float32Array, bias: Float32Array | undefined, outFeatures: number, rows?: readonly number[]): Float32Array {
  const inFeatures = x.length;
  const selected = rows ?? Array.from({ length: outFeatures }, (_, row) => row);
  return Float32Array.from(selected, (row) => {
    let sum = bias?.[row] ?? 0;
    for (let k = 0; k < inFeatures; k++) sum += weight[row * inFeatures + k]! * x[k]!;
    return sum;
  });
}
