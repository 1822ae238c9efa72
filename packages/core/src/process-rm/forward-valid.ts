import { NonFiniteOutputError, type BackendV1, type ReadRequestV1 } from '@reward-lens/spec';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import { activateScores } from './activate-scores.js';
import { forwardReadsInBatches } from './forward-batches.js';
import { boundByProbabilities, likelihoodPositions, tokenProbabilities } from './likelihood-bound.js';
import type { TokenizedBatch } from './tokenized-batch.js';
import type { TokenizedPair } from './tokenize-pair.js';

/** What a ProcessRM's reads on its local backend need: the backend, how the head is read, how pairs are batched. */
export interface ForwardContext {
  backend: BackendV1;
  recipe: ReadingRecipe;
  columns: number[] | undefined;
  batchSize: number;
  padding: 'left' | 'right';
  padTokenId: number;
  /** The call's signal (`ScoringOptions.signal`), checked before each pass. */
  signal?: AbortSignal | undefined;
}

/** Runs the pairs that tokenized, reading `read(positions)`; unscored pairs get no values. */
export async function forwardValid(
  context: ForwardContext,
  batch: TokenizedBatch,
  positionsOf: (pair: TokenizedPair) => number[],
  read: (positions: number[][]) => ReadRequestV1,
): Promise<{ values: Float32Array[]; width: number; counts: number[] }> {
  const [only] = await forwardValidReads(context, batch, [positionsOf], (perRead) => [read(perRead[0]!)]);
  return only!;
}

/** `forwardValid` with several reads in each pass, each at its own positions. */
export async function forwardValidReads(
  context: ForwardContext,
  batch: TokenizedBatch,
  positionsOf: readonly ((pair: TokenizedPair) => number[])[],
  reads: (perRead: number[][][]) => ReadRequestV1[],
  onRow?: (read: number, pair: TokenizedPair, values: Float32Array, width: number) => Float32Array,
): Promise<{ values: Float32Array[]; width: number; counts: number[] }[]> {
  const valid = batch.pairs.flatMap((pair, index) => {
    if (batch.errors[index] !== null) return [];
    const readPositions = positionsOf.map((of) => of(pair));
    return [{ index, sequence: { inputIds: pair.inputIds, positions: readPositions[0]!, readPositions } }];
  });
  const results = await forwardReadsInBatches(
    context.backend,
    valid.map(({ sequence }) => sequence),
    {
      batchSize: context.batchSize,
      padding: context.padding,
      padTokenId: context.padTokenId,
      signal: context.signal,
      reads: (_, perRead) => reads(perRead),
      ...(onRow
        ? { onRow: (read: number, row: number, values: Float32Array, width: number) => onRow(read, batch.pairs[valid[row]!.index]!, values, width) }
        : {}),
    },
  );
  return positionsOf.map((_, read) => {
    const result = results[read] ?? { values: [], width: 0 };
    const values: Float32Array[] = batch.pairs.map(() => new Float32Array(0));
    const counts = batch.pairs.map(() => 0);
    valid.forEach(({ index, sequence }, row) => {
      const rowValues = result.values[row]!;
      const bad = rowValues.findIndex((value) => !Number.isFinite(value));
      if (bad >= 0) {
        const { name, info } = context.backend;
        // Per row: values per read position (a row mapped by onRow may hold fewer than the read's width).
        const rowWidth = rowValues.length / Math.max(1, sequence.readPositions[read]!.length);
        const position = sequence.readPositions[read]![Math.floor(bad / Math.max(1, rowWidth))]!;
        throw new NonFiniteOutputError({ model: info.description, backend: name, inputIndex: index, value: rowValues[bad]!, position });
      }
      values[index] = rowValues;
      counts[index] = sequence.readPositions[read]!.length;
    });
    return { values, width: result.width, counts };
  });
}

/**
 * Reads the recipe's head at each pair's positions on the local backend and activates the outputs
 * into scores; a recipe with a likelihood head also reads the LM head in the same pass and bounds
 * each step's score by the solution's likelihood so far.
 */
export async function readLocalHead(
  context: ForwardContext,
  batch: TokenizedBatch,
  positionsOf: (pair: TokenizedPair) => number[],
  layer?: number,
): Promise<Float32Array[]> {
  const read = (positions: number[][]): ReadRequestV1 => ({
    kind: 'head',
    head: context.recipe.head,
    positions,
    ...(context.columns ? { columns: context.columns } : {}),
    ...(layer !== undefined ? { layer } : {}),
  });
  const likelihood = context.recipe.likelihoodHead;
  if (likelihood === undefined || layer !== undefined) {
    const { values, width, counts } = await forwardValid(context, batch, positionsOf, read);
    return values.map((rowValues, index) => activateScores(rowValues, counts[index]!, width, context.recipe));
  }
  // The recipe's head and, in the same pass, the language-model head before every solution token.
  // Each row's logits become one probability per token as its batch returns (the next pass running meanwhile).
  const [scores, probabilities] = await forwardValidReads(
    context,
    batch,
    [positionsOf, likelihoodPositions],
    (perRead) => [read(perRead[0]!), { kind: 'head', head: likelihood, positions: perRead[1]! }],
    (readIndex, pair, values, width) => (readIndex === 1 ? tokenProbabilities(pair, values, width) : values),
  );
  return scores!.values.map((rowValues, index) => {
    const activated = activateScores(rowValues, scores!.counts[index]!, scores!.width, context.recipe);
    if (batch.errors[index] !== null) return activated;
    const pair = batch.pairs[index]!;
    return boundByProbabilities(activated, positionsOf(pair), pair, probabilities!.values[index]!);
  });
}

/** Per pair, the residual stream after `layer` layers at every step's read position (unscored pairs: none). */
export async function readHiddenStates(context: ForwardContext, batch: TokenizedBatch, layer: number): Promise<{ values: Float32Array[]; hiddenSize: number }> {
  const { values, width } = await forwardValid(
    context,
    batch,
    (pair) => pair.readPositions.filter((position) => position >= 0),
    (positions) => ({ kind: 'hidden', layer, positions }),
  );
  return { values, hiddenSize: width || context.backend.info.hiddenSize };
}
