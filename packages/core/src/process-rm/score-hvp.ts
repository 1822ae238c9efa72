import { InvalidInputError } from '../errors/invalid-input-error.js';
import { scoreGradient, scoreHessianProduct, scoreOfOutputs } from './score-derivatives.js';
import type { DerivativeContext } from './step-gradients.js';
import type { TokenizedPair } from './tokenize-pair.js';

export interface ScoreHvpOptions {
  /** Whose score: a step index (0-based); default the last step (the outcome score). */
  step?: number;
  /**
   * The vector `v`: tangents of tensors by name (the names of the model's tensors; a tensor left
   * out is zero) and of the pair's input embeddings, `[tokens, hiddenSize]` token-major.
   */
  direction: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: Float32Array };
  /** Which blocks to return (default both). */
  wrt?: { parameters?: boolean; inputEmbeddings?: boolean };
}

/** A step score's gradient and exact Hessian-vector product, over the parameters and the pair's input embeddings. */
export interface ScoreHvp {
  step: number;
  score: number;
  readTokenIndex: number;
  gradient: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: Float32Array };
  hvp: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: Float32Array };
}

/** One backend HVP pass for one pair, the loss being the step's score (its activation's curvature included). */
export async function computeScoreHvp(context: DerivativeContext, pair: TokenizedPair, options: ScoreHvpOptions): Promise<ScoreHvp> {
  const { backend, recipe, columns } = context;
  const step = options.step ?? pair.steps.length - 1;
  if (!Number.isInteger(step) || step < 0 || step >= pair.steps.length) throw new InvalidInputError(`step ${step} is outside 0..${pair.steps.length - 1}`);
  const readTokenIndex = pair.readPositions[step]!;
  if (readTokenIndex < 0) throw new InvalidInputError(`step ${step} was cut off by truncation; it has no score`);
  const length = pair.inputIds.length;
  const width = length * backend.info.hiddenSize;
  const embeddingDirection = options.direction?.inputEmbeddings;
  if (embeddingDirection !== undefined && (!(embeddingDirection instanceof Float32Array) || embeddingDirection.length !== width)) {
    throw new InvalidInputError(`direction.inputEmbeddings must be a Float32Array of ${length} tokens x ${backend.info.hiddenSize} (${width} values)`);
  }
  let score = Number.NaN;
  const result = await backend.doHvp!({
    batchSize: 1,
    sequenceLength: length,
    inputIds: pair.inputIds,
    attentionMask: new Uint8Array(length).fill(1),
    reads: [{ kind: 'head', head: recipe.head, positions: [[readTokenIndex]], ...(columns ? { columns } : {}) }],
    wrt: { parameters: options.wrt?.parameters ?? true, inputEmbeddings: options.wrt?.inputEmbeddings ?? true },
    direction: {
      ...(options.direction?.parameters ? { parameters: options.direction.parameters } : {}),
      ...(embeddingDirection ? { inputEmbeddings: [embeddingDirection] } : {}),
    },
    readGradients: (reads) => {
      const outputs = reads[0]!.values[0]!;
      score = scoreOfOutputs(outputs, recipe);
      return [[scoreGradient(outputs, recipe)]];
    },
    readHessianProduct: (reads, tangents) => [[scoreHessianProduct(reads[0]!.values[0]!, tangents[0]!.values[0]!, recipe)]],
  });
  const block = (values: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: Float32Array[] }) => ({
    ...(values.parameters ? { parameters: values.parameters } : {}),
    ...(values.inputEmbeddings ? { inputEmbeddings: values.inputEmbeddings[0]! } : {}),
  });
  return { step, score, readTokenIndex, gradient: block(result), hvp: block(result.hvp) };
}
