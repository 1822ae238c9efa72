import { createTinyBackend } from '@reward-lens/backend-tiny';
import { ProcessRM, createRandomDecoder, defineDecoderConfig, type BackendV1, type DecoderModel, type HeadSpec, type ReadingRecipe } from '@reward-lens/core';

/** A small random decoder of a family with the given heads, sized for a tokenizer's vocabulary. */
export function recipeModel(options: { vocabSize: number; heads: HeadSpec[]; architecture?: 'llama' | 'qwen2' | 'mistral'; seed?: number }): {
  model: DecoderModel;
  backend: BackendV1;
} {
  const architecture = options.architecture ?? 'llama';
  const config = defineDecoderConfig({
    architecture,
    hiddenSize: 32,
    numLayers: 2,
    numHeads: 4,
    numKvHeads: 2,
    intermediateSize: 64,
    vocabSize: options.vocabSize,
    maxPositions: 2048,
    ropeTheta: architecture === 'qwen2' ? 1_000_000 : 10_000,
    rmsNormEps: 1e-6,
    tieWordEmbeddings: true,
    attentionBias: architecture === 'qwen2',
    heads: options.heads,
  });
  const model = createRandomDecoder({ seed: options.seed ?? 11, config });
  return { model, backend: createTinyBackend(model) };
}

/** `recipeModel` with a recipe's heads, sized for the tokenizer, and ProcessRM reading it with that recipe. */
export function recipePrm(
  recipe: ReadingRecipe,
  tokenizer: Parameters<typeof ProcessRM.fromBackend>[1],
  architecture?: 'llama' | 'qwen2' | 'mistral',
): { model: DecoderModel; backend: BackendV1; prm: ProcessRM } {
  const { model, backend } = recipeModel({ vocabSize: tokenizer.vocabSize, heads: recipe.heads, ...(architecture ? { architecture } : {}) });
  return { model, backend, prm: ProcessRM.fromBackend(backend, tokenizer, { recipe }) };
}

/** Reads a head's full outputs at positions of one sequence, straight from the backend. */
export async function readHead(backend: BackendV1, ids: readonly number[], head: string, positions: number[], columns?: number[]): Promise<number[][]> {
  const result = await backend.doForward({
    batchSize: 1,
    sequenceLength: ids.length,
    inputIds: Int32Array.from(ids),
    attentionMask: new Uint8Array(ids.length).fill(1),
    reads: [{ kind: 'head', head, positions: [positions], ...(columns ? { columns } : {}) }],
  });
  const { width, values } = result.reads[0]!;
  return positions.map((_, index) => Array.from(values[0]!.subarray(index * width, (index + 1) * width)));
}

export function softmax(values: number[]): number[] {
  const max = Math.max(...values);
  const exps = values.map((value) => Math.exp(value - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

export function indicesOf(ids: readonly number[], token: number): number[] {
  return ids.flatMap((id, index) => (id === token ? [index] : []));
}
