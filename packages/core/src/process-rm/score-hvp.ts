import { BackendContractError, InvalidInputError, NonFiniteOutputError } from '@reward-lens/spec';

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
function invalid(message: string): InvalidInputError {
  return new InvalidInputError(message, { location: 'options.direction' });
}

/** The direction's shape, checked before any pass: a Map of finite Float32Arrays, finite embeddings. */
function checkDirection(options: ScoreHvpOptions | undefined): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError('hvp needs options with a direction: { direction: { parameters?: Map<name, Float32Array>, inputEmbeddings?: Float32Array } }', {
      location: 'options',
    });
  }
  const { direction } = options;
  if (typeof direction !== 'object' || direction === null) throw invalid('options.direction must be an object { parameters?, inputEmbeddings? }');
  if (direction.parameters !== undefined) {
    if (!(direction.parameters instanceof Map)) throw invalid('direction.parameters must be a Map from tensor name to Float32Array, not a plain object');
    for (const [name, tangent] of direction.parameters) {
      if (!(tangent instanceof Float32Array)) throw invalid(`direction.parameters ${JSON.stringify(name)} must be a Float32Array`);
      const bad = tangent.findIndex((value) => !Number.isFinite(value));
      if (bad >= 0) throw invalid(`direction.parameters ${JSON.stringify(name)} holds ${tangent[bad]} at index ${bad}; a direction must be finite`);
    }
  }
  const embeddings = direction.inputEmbeddings;
  if (embeddings instanceof Float32Array) {
    const bad = embeddings.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0) throw invalid(`direction.inputEmbeddings holds ${embeddings[bad]} at index ${bad}; a direction must be finite`);
  }
}

/** Every direction tensor must be one of the model's, of its size: the gradient's tensors say which and how large. */
function checkDirectionAgainst(direction: ReadonlyMap<string, Float32Array>, gradient: ReadonlyMap<string, Float32Array>): void {
  for (const [name, tangent] of direction) {
    const expected = gradient.get(name);
    if (expected === undefined) {
      const names = [...gradient.keys()];
      throw invalid(
        `direction.parameters ${JSON.stringify(name)} is not a tensor of the model (it has ${names.length}: ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', ...' : ''})`,
      );
    }
    if (tangent.length !== expected.length)
      throw invalid(`direction.parameters ${JSON.stringify(name)} has ${tangent.length} values; the tensor has ${expected.length}`);
  }
}

export async function computeScoreHvp(context: DerivativeContext, pair: TokenizedPair, options: ScoreHvpOptions): Promise<ScoreHvp> {
  checkDirection(options);
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
  const result = await runHvp(
    () =>
      backend.doHvp!({
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
      }),
    options.direction.parameters !== undefined || embeddingDirection !== undefined,
  );
  // Backends check the direction before the pass (validateHvpRequest); the gradient's tensors check it again for one that does not.
  if (options.direction.parameters !== undefined && result.parameters !== undefined) checkDirectionAgainst(options.direction.parameters, result.parameters);
  const block = (values: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: Float32Array[] }) => ({
    ...(values.parameters ? { parameters: values.parameters } : {}),
    ...(values.inputEmbeddings ? { inputEmbeddings: values.inputEmbeddings[0]! } : {}),
  });
  const answer = { step, score, readTokenIndex, gradient: block(result), hvp: block(result.hvp) };
  refuseNonFinite(answer, backend.name, backend.info.description, readTokenIndex);
  return answer;
}

/** NaN or an infinity in the score, the gradient or the product is the model's (broken weights), said as such. */
function refuseNonFinite(answer: ScoreHvp, backend: string, model: string, position: number): void {
  const values = [
    [answer.score],
    ...[answer.gradient, answer.hvp].flatMap((block) => [...(block.parameters?.values() ?? []), ...(block.inputEmbeddings ? [block.inputEmbeddings] : [])]),
  ];
  for (const array of values) {
    for (const value of array) if (!Number.isFinite(value)) throw new NonFiniteOutputError({ model, backend, inputIndex: 0, value, position });
  }
}

/**
 * The backend's pass. A backend checks the direction against its tensors (`validateHvpRequest`)
 * and refuses a wrong name or size as a broken contract; here the direction is the caller's, so it
 * is the caller's error, said in the backend's words.
 */
async function runHvp<T>(pass: () => Promise<T>, callerDirection: boolean): Promise<T> {
  try {
    return await pass();
  } catch (error) {
    if (callerDirection && BackendContractError.isInstance(error) && error.field === 'direction') {
      throw new InvalidInputError(error.message, { location: 'options.direction', cause: error });
    }
    throw error;
  }
}
