import { type BackendV1, type Capabilities, InvalidInputError, type PrecisionV1, type WeightDtypeV1 } from '@reward-lens/spec';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import type { TokenizedBatch } from './tokenized-batch.js';
import type { TokenizedPair } from './tokenize-pair.js';

/**
 * Where a ProcessRM's scores come from when no local forward pass makes them: an engine that
 * returns activated step scores itself, such as vLLM's STEP pooling (`fromVllm` of
 * `@reward-lens/remote`). It describes itself as it is: what it can do (SCORES and STEP_SCORES,
 * say), its context length and precision; it has no layers or hidden states to offer.
 */
export interface StepScoreSource {
  readonly name: string;
  /** For notes: the server, the model. */
  readonly description: string;
  readonly capabilities: Capabilities;
  readonly precision: PrecisionV1;
  /** The longest sequence the engine takes (`max_model_len`); `Number.MAX_SAFE_INTEGER` when it tokenizes itself and the length is counted in characters. */
  readonly maxPositions: number;
  /**
   * Per pair (null: not scored), the activated scores at `positions[i]`, which are some of the
   * pair's read positions. `layer` is refused unless the engine can read inner layers. `signal`
   * (the call's `ScoringOptions.signal`) aborts the engine's requests in flight.
   */
  readScores(
    pairs: readonly (TokenizedPair | null)[],
    positions: readonly (readonly number[])[],
    layer?: number,
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

/** What scores a ProcessRM: a local backend's forward passes, or a score source. The same fields either way. */
export interface ScoringSourceInfo {
  readonly kind: 'backend' | 'scores';
  readonly name: string;
  readonly description: string;
  readonly capabilities: Capabilities;
  readonly precision: PrecisionV1;
  /** How a local backend holds the weights (`ModelInfoV1.weightDtype`): `'fp32'` unless quantized or 16-bit; undefined for a score source, which does not say. */
  readonly weightDtype?: WeightDtypeV1;
  readonly maxPositions: number;
}

export function isStepScoreSource(engine: BackendV1 | StepScoreSource): engine is StepScoreSource {
  return typeof (engine as StepScoreSource).readScores === 'function' && !('specificationVersion' in engine);
}

export function scoringSourceInfo(engine: BackendV1 | StepScoreSource): ScoringSourceInfo {
  if (isStepScoreSource(engine)) {
    const { name, description, capabilities, precision, maxPositions } = engine;
    return { kind: 'scores', name, description, capabilities, precision, maxPositions };
  }
  const { name, capabilities, precision, info } = engine;
  return {
    kind: 'backend',
    name,
    description: info.description,
    capabilities,
    precision,
    weightDtype: info.weightDtype ?? 'fp32',
    maxPositions: info.maxPositions,
  };
}

/** The source's scores at each pair's positions (pairs that did not lay out are not sent). */
export function readSourceScores(
  source: StepScoreSource,
  recipe: ReadingRecipe,
  batch: TokenizedBatch,
  positionsOf: (pair: TokenizedPair) => number[],
  layer?: number,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  signal?.throwIfAborted();
  if (recipe.likelihoodHead !== undefined) {
    throw new InvalidInputError(
      `recipe "${recipe.name}" bounds step scores by its "${recipe.likelihoodHead}" head's likelihood of the solution, which a remote engine's pooling output does not give: serve the model with a recipe without a likelihood head`,
    );
  }
  return source.readScores(
    batch.pairs.map((pair, index) => (batch.errors[index] === null ? pair : null)),
    batch.pairs.map(positionsOf),
    layer,
    signal,
  );
}
