import { type BackendV1, type HeadInfoV1, capabilitiesOf, UnsupportedCapabilityError } from '@reward-lens/spec';

import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/**
 * The `backend` of a ProcessRM whose forward passes run on a remote engine: it describes the
 * engine (name, notes, the recipe's heads) and declares only what the engine returns, SCORES and
 * STEP_SCORES. The scores come through the remote reader; `doForward` itself is refused.
 */
export function createRemoteBackend(options: { name: string; description: string; recipe: ReadingRecipe; vocabSize: number; maxPositions: number }): BackendV1 {
  const heads: HeadInfoV1[] = options.recipe.heads.map((head) => ({
    name: head.name,
    kind: head.kind,
    width: head.kind === 'lm' ? options.vocabSize : head.kind === 'value' ? 1 : head.numLabels,
  }));
  return {
    specificationVersion: 'v1',
    name: options.name,
    capabilities: capabilitiesOf('SCORES', 'STEP_SCORES'),
    // Unknown from here; vLLM serves these models in bf16 unless told otherwise, the loosest of the three.
    precision: 'bf16',
    supportsCache: false,
    info: { description: options.description, vocabSize: options.vocabSize, hiddenSize: 0, numLayers: 0, maxPositions: options.maxPositions, heads },
    async doForward() {
      throw new UnsupportedCapabilityError({ capability: 'local forward pass', backend: options.name, operation: 'doForward' });
    },
    async dispose() {},
  };
}
