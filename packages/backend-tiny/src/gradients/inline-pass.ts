import type { GradientEngine } from './gradient-engine.js';
import type { ShardedPass, ShardedPassResult } from './sharded-pass.js';
import { type FlatParameters, addRange, mergeShardReads, mergeShardRows, shardDirection, shardRequest, shardRows } from './shards.js';

/**
 * A sharded pass on the calling thread: every shard's forward, the loss on the whole request's
 * reads, then every shard's backward into zeroed buffers, summed in shard order. The same
 * arithmetic as on the pool's workers, so the same bits.
 */
export function runShardedPassInline(engine: GradientEngine, flat: FlatParameters, pass: ShardedPass): ShardedPassResult {
  const { request, shards, targets, direction } = pass;
  engine.beginPass();
  const recorded = shards.map((shard) => {
    const sub = shardRequest(request, shard);
    const subDirection = direction ? shardDirection(direction, shard) : undefined;
    return { shard, sub, subDirection, record: engine.forwardRecord(sub, subDirection) };
  });
  const reads = mergeShardReads(recorded.map(({ record }) => record.reads));
  const readTangents = direction ? mergeShardReads(recorded.map(({ record }) => record.tangent!.reads)) : undefined;
  const seeds = pass.seedsOf(reads);
  const seedTangents = readTangents && pass.seedTangentsOf ? pass.seedTangentsOf(reads, readTangents) : undefined;

  const total = targets.parameters ? new Float32Array(flat.total) : undefined;
  const totalTangent = targets.parameters && direction ? new Float32Array(flat.total) : undefined;
  const scratch = total && shards.length > 1 ? new Float32Array(flat.total) : undefined;
  const scratchTangent = totalTangent && shards.length > 1 ? new Float32Array(flat.total) : undefined;
  const embeddings: (Float32Array[] | undefined)[] = [];
  const tangentEmbeddings: (Float32Array[] | undefined)[] = [];
  recorded.forEach(({ shard, sub, subDirection, record }, index) => {
    const gradient = index === 0 ? total : scratch?.fill(0);
    const tangent = index === 0 ? totalTangent : scratchTangent?.fill(0);
    const into = gradient ? { gradients: flat.views(gradient), ...(tangent ? { tangents: flat.views(tangent) } : {}) } : undefined;
    const second = subDirection ? { direction: subDirection, seedTangents: seedTangents ? shardRows(seedTangents, shard) : undefined } : undefined;
    const { primal, tangent: dual } = engine.backwardRecord(sub, record, shardRows(seeds, shard), targets, second, into);
    if (index > 0 && total && scratch) addRange(total, scratch, 0, flat.total);
    if (index > 0 && totalTangent && scratchTangent) addRange(totalTangent, scratchTangent, 0, flat.total);
    embeddings.push(primal.inputEmbeddings);
    tangentEmbeddings.push(dual?.inputEmbeddings);
  });
  return assemble(flat, pass, reads, readTangents, total, totalTangent, embeddings, tangentEmbeddings);
}

/** The pass's result blocks, as the spec shapes them. */
export function assemble(
  flat: FlatParameters,
  pass: ShardedPass,
  reads: ShardedPassResult['reads'],
  readTangents: ShardedPassResult['readTangents'],
  total: Float32Array | undefined,
  totalTangent: Float32Array | undefined,
  embeddings: readonly (Float32Array[] | undefined)[],
  tangentEmbeddings: readonly (Float32Array[] | undefined)[],
): ShardedPassResult {
  const result: ShardedPassResult = { reads };
  if (total) result.parameters = flat.views(total);
  if (pass.targets.inputEmbeddings) result.inputEmbeddings = mergeShardRows(embeddings)!;
  if (pass.direction) {
    result.readTangents = readTangents!;
    result.hvp = {};
    if (totalTangent) result.hvp.parameters = flat.views(totalTangent);
    if (pass.targets.inputEmbeddings) result.hvp.inputEmbeddings = mergeShardRows(tangentEmbeddings)!;
  }
  return result;
}
