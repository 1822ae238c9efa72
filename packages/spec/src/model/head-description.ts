import { headWidth, type DecoderConfig, type HeadSpec } from './decoder-config.js';

/**
 * One operation of a head, applied in order to a residual-stream vector. Tensor names are the
 * model's (Hugging Face names), so each backend resolves them against its own copy of the weights.
 */
export type HeadOperation =
  /** RMSNorm: `x / sqrt(mean(x²) + eps) * weight`, `weight` of `[size]`. */
  | { op: 'rms-norm'; weight: string; eps: number; size: number }
  /**
   * `weight · x (+ bias)`, `weight` stored `[outFeatures, inFeatures]` as PyTorch's `nn.Linear`
   * stores it. `tiedToEmbeddings`: `weight` is the embedding table (a tied LM head), which a
   * backend may share with the token embedding instead of storing it twice.
   */
  | { op: 'linear'; weight: string; bias: string | undefined; inFeatures: number; outFeatures: number; tiedToEmbeddings: boolean }
  /** `max(x, 0)`, element-wise. */
  | { op: 'relu' };

/**
 * What "apply a head" means, as data: every backend compiles this one description into its own
 * form (kernels, ONNX nodes, a JavaScript readout, GPU dispatches), so none can drop a part.
 *
 * `operations` starts with the final norm (`model.norm.weight`) and ends with the output
 * projection, a `linear` of `width` outputs; in between sit the head's hidden layers (Qwen2.5-Math-PRM:
 * `score.0` → ReLU, then `score.2`). A read with `columns` keeps only those rows of the output
 * projection (and of its bias), in the order asked. A read at an inner layer applies the same
 * operations, final norm included, to that layer's hidden state.
 */
export interface HeadDescription {
  name: string;
  kind: HeadSpec['kind'];
  /** Outputs per position of the whole head (vocabulary size, classes, or 1). */
  width: number;
  /** The width of the residual stream the head reads. */
  hiddenSize: number;
  operations: readonly HeadOperation[];
}

/** The tensor of the final norm every head starts with. */
export const FINAL_NORM_WEIGHT = 'model.norm.weight';

/**
 * The description of one head of a decoder config.
 *
 * @example
 * describeHead(config, { name: 'classifier', kind: 'token-classification', numLabels: 2,
 *   weight: 'score.2.weight', bias: 'score.2.bias', hidden: { weight: 'score.0.weight', bias: 'score.0.bias' } }).operations;
 * // rms-norm(model.norm.weight), linear(score.0), relu, linear(score.2)
 */
export function describeHead(config: DecoderConfig, head: HeadSpec): HeadDescription {
  const { hiddenSize } = config;
  const width = headWidth(config, head);
  const operations: HeadOperation[] = [{ op: 'rms-norm', weight: FINAL_NORM_WEIGHT, eps: config.rmsNormEps, size: hiddenSize }];
  if (head.kind === 'lm') {
    const tied = config.tieWordEmbeddings;
    const weight = tied ? 'model.embed_tokens.weight' : 'lm_head.weight';
    operations.push({ op: 'linear', weight, bias: undefined, inFeatures: hiddenSize, outFeatures: width, tiedToEmbeddings: tied });
  } else {
    if (head.hidden) {
      const { weight, bias } = head.hidden;
      operations.push({ op: 'linear', weight, bias, inFeatures: hiddenSize, outFeatures: hiddenSize, tiedToEmbeddings: false }, { op: 'relu' });
    }
    operations.push({ op: 'linear', weight: head.weight, bias: head.bias, inFeatures: hiddenSize, outFeatures: width, tiedToEmbeddings: false });
  }
  return { name: head.name, kind: head.kind, width, hiddenSize, operations };
}

/** Every head of a config, described, in the config's order. */
export function describeHeads(config: DecoderConfig): HeadDescription[] {
  return config.heads.map((head) => describeHead(config, head));
}

/**
 * The output projection: the last operation, which `columns` select rows of. Throws when a
 * description does not end with one (a hand-written description that a backend cannot read).
 */
export function outputProjectionOf(description: HeadDescription): Extract<HeadOperation, { op: 'linear' }> {
  const last = description.operations[description.operations.length - 1];
  if (last?.op !== 'linear') throw new Error(`head "${description.name}" does not end with its output projection (a linear operation)`);
  return last;
}

/** A one-line summary: `rms-norm → linear 64→64 (score.0.weight + bias) → relu → linear 64→2 (score.2.weight + bias)`. */
export function formatHeadDescription(description: HeadDescription): string {
  return description.operations
    .map((operation) => {
      switch (operation.op) {
        case 'rms-norm':
          return `rms-norm (${operation.weight})`;
        case 'linear':
          return `linear ${operation.inFeatures}→${operation.outFeatures} (${operation.weight}${operation.bias ? ' + bias' : ''}${operation.tiedToEmbeddings ? ', tied' : ''})`;
        case 'relu':
          return 'relu';
        default:
          return unknownHeadOperation(operation);
      }
    })
    .join(' → ');
}

/**
 * For a compiler's exhaustive `switch` over `operation.op`: a new kind of operation fails to
 * type-check in every backend until each one handles it, and at run time names what is missing.
 */
export function unknownHeadOperation(operation: never): never {
  throw new Error(`unknown head operation ${JSON.stringify(operation)}`);
}
