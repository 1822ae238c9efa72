import type { BackwardRequestV1, ReadGradientsV1, ReadResultV1, TangentV1 } from '@reward-lens/spec';
import type { GradientTargets } from './gradient-engine.js';
import type { Shard } from './shards.js';

/** A backward or HVP pass over a request cut into shards (see `shards.ts`), as the backend runs it. */
export interface ShardedPass {
  request: Pick<BackwardRequestV1, 'batchSize' | 'sequenceLength' | 'inputIds' | 'attentionMask' | 'reads' | 'inputEmbeddings'>;
  shards: Shard[];
  targets: GradientTargets;
  /** For an HVP: the direction `v`. */
  direction?: TangentV1;
  /** The loss's gradient in the whole request's reads (validated). */
  seedsOf(reads: readonly ReadResultV1[]): ReadGradientsV1;
  /** For an HVP: the loss's curvature along the reads' tangents, when it has one. */
  seedTangentsOf?(reads: readonly ReadResultV1[], tangents: readonly ReadResultV1[]): ReadGradientsV1;
}

/** What a sharded pass gives: the whole request's reads and gradients (and for an HVP their tangents). */
export interface ShardedPassResult {
  reads: ReadResultV1[];
  parameters?: Map<string, Float32Array>;
  inputEmbeddings?: Float32Array[];
  readTangents?: ReadResultV1[];
  hvp?: { parameters?: Map<string, Float32Array>; inputEmbeddings?: Float32Array[] };
}
