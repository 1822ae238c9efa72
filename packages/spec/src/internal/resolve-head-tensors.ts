import { describeHead, type HeadDescription, unknownHeadOperation } from '../model/head-description.js';
import type { DecoderConfig, HeadSpec } from '../model/index.js';

/** A head's operation with its tensors resolved to what a backend computes with (arrays, GPU buffers, ...). */
export type ResolvedHeadStep<Tensor> =
  | { op: 'rms-norm'; weight: Tensor; eps: number; size: number }
  | { op: 'linear'; weight: Tensor; bias: Tensor | undefined; inFeatures: number; outFeatures: number }
  | { op: 'relu' };

/** A head as a backend runs it: its description's every operation, none dropped, tensors resolved. */
export interface ResolvedHead<Tensor> {
  name: string;
  kind: HeadSpec['kind'];
  /** Outputs per position (vocabulary size, classes, or 1). */
  width: number;
  steps: ResolvedHeadStep<Tensor>[];
}

/**
 * Resolves `describeHead(config, head)`: each operation's tensors through `tensor` (told whether
 * the tensor is a matrix, a linear layer's weight, or a vector: a norm's weight, a bias). A
 * description that does not end with the output projection is refused.
 */
export function resolveHeadTensors<Tensor>(
  config: DecoderConfig,
  head: HeadSpec,
  tensor: (name: string, shape: 'matrix' | 'vector') => Tensor,
): ResolvedHead<Tensor> {
  const description: HeadDescription = describeHead(config, head);
  const steps = description.operations.map((operation): ResolvedHeadStep<Tensor> => {
    switch (operation.op) {
      case 'rms-norm':
        return { op: 'rms-norm', weight: tensor(operation.weight, 'vector'), eps: operation.eps, size: operation.size };
      case 'linear': {
        const { inFeatures, outFeatures } = operation;
        const bias = operation.bias === undefined ? undefined : tensor(operation.bias, 'vector');
        return { op: 'linear', weight: tensor(operation.weight, 'matrix'), bias, inFeatures, outFeatures };
      }
      case 'relu':
        return { op: 'relu' };
      default:
        return unknownHeadOperation(operation);
    }
  });
  if (steps[steps.length - 1]?.op !== 'linear') throw new Error(`head "${head.name}" does not end with its output projection`);
  return { name: head.name, kind: head.kind, width: description.width, steps };
}
