import type { BackendV1, CacheHandleV1, ReadRequestV1 } from '@reward-lens/spec';
import { padRows } from '@reward-lens/spec/internal';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/** Some tokens of one candidate prefix, run from a cache of the tokens before them. */
export interface PassRow {
  /** The tokens to run: sequence positions `[from, from + tokens.length)`. */
  tokens: readonly number[];
  from: number;
  /** The cache of the `from` tokens before them (null when `from` is 0). */
  past: CacheHandleV1 | null;
  /** Sequence positions within the row's tokens whose head outputs are read. */
  reads: readonly number[];
  /** With a returned cache on a backend that `supportsCacheLengths`: the tokens (from 0) it keeps; the rest are run and read only. */
  keep?: number;
}

export interface PassContext {
  backend: BackendV1;
  recipe: ReadingRecipe;
  columns: number[] | undefined;
  /** Rows per forward pass. */
  batchSize: number;
}

export interface PassResult {
  /** Per row, its reads' head outputs (`reads.length * width`, position-major). */
  values: Float32Array[];
  /** With a recipe's likelihood head: per row, that head's outputs at every token the row runs (`tokens.length * likelihoodWidth`). */
  likelihood: Float32Array[];
  likelihoodWidth: number;
  /** Per row, when asked for: a cache of its past and its tokens, held by the caller. */
  caches: CacheHandleV1[];
  width: number;
}

/**
 * Runs the rows through the backend, `batchSize` rows per padded forward pass (no rows: no pass).
 * If a pass fails (or `signal` aborts between passes), the caches already made are released before the error goes on.
 */
export async function runPrefixPass(context: PassContext, rows: readonly PassRow[], returnCache: boolean, signal?: AbortSignal): Promise<PassResult> {
  const result: PassResult = { values: [], caches: [], width: 0, likelihood: [], likelihoodWidth: 0 };
  const likelihoodHead = context.recipe.likelihoodHead;
  try {
    for (let first = 0; first < rows.length; first += context.batchSize) {
      signal?.throwIfAborted();
      const chunk = rows.slice(first, first + context.batchSize);
      const { sequenceLength, inputIds, attentionMask } = padRows(chunk.map((row) => row.tokens));
      const read: ReadRequestV1 = {
        kind: 'head',
        head: context.recipe.head,
        positions: chunk.map((row) => row.reads.map((position) => position - row.from)),
        ...(context.columns ? { columns: context.columns } : {}),
      };
      const output = await context.backend.doForward({
        batchSize: chunk.length,
        sequenceLength,
        inputIds,
        attentionMask,
        reads: likelihoodHead
          ? [read, { kind: 'head', head: likelihoodHead, positions: chunk.map((row) => row.tokens.map((_, position) => position)) }]
          : [read],
        past: chunk.map((row) => row.past),
        returnCache,
        ...(returnCache && chunk.some((row) => row.keep !== undefined) ? { cacheLengths: chunk.map((row) => row.keep ?? row.from + row.tokens.length) } : {}),
      });
      result.values.push(...output.reads[0]!.values);
      result.width = output.reads[0]!.width;
      if (likelihoodHead) {
        result.likelihood.push(...output.reads[1]!.values);
        result.likelihoodWidth = output.reads[1]!.width;
      }
      if (returnCache) result.caches.push(...output.caches!);
    }
  } catch (error) {
    for (const cache of result.caches) cache.release();
    throw error;
  }
  return result;
}
