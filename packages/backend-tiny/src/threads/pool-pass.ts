import type { ReadResultV1 } from '@reward-lens/core';
import { assemble } from '../gradients/inline-pass.js';
import type { ShardedPass, ShardedPassResult } from '../gradients/sharded-pass.js';
import { type FlatParameters, mergeShardReads, shardDirection, shardRequest, shardRows } from '../gradients/shards.js';
import type { DirectionPayload, ShardBackwardReply, ShardForwardReply } from './protocol.js';
import type { PoolRun } from './worker-pool.js';

let nextPass = 1;

const sharedFloats = (length: number) => new Float32Array(new SharedArrayBuffer(Math.max(4, length * 4)));

/**
 * A sharded pass on `threads` workers of the pool: shard `s` is recorded and differentiated on
 * worker `s mod threads`; the loss runs here on the whole request's reads; the backward passes
 * go in waves of one shard per worker into shared buffers, and after each wave the workers add
 * the wave's buffers into the total, each over its range of the parameters, in shard order. So
 * every parameter's gradient is the same sum, in the same order, as on one thread.
 */
export async function runShardedPassOnPool(run: PoolRun, model: number, threads: number, flat: FlatParameters, pass: ShardedPass): Promise<ShardedPassResult> {
  const { request, shards, targets, direction } = pass;
  const workers = Math.min(threads, shards.length);
  const id = nextPass++;
  const directionFlat = direction?.parameters ? flat.flatten(direction.parameters, sharedFloats(flat.total)) : undefined;
  const directionNames = direction?.parameters ? [...direction.parameters.keys()] : [];
  {
    // Forward passes, each worker its shards in one message.
    const assigned = Array.from({ length: workers }, (_, worker) =>
      shards.map((shard, index) => ({ shard, index })).filter(({ index }) => index % workers === worker),
    );
    const forwardReplies = await Promise.all(
      assigned.map((list, worker) =>
        run.call<ShardForwardReply>(worker, {
          type: 'shard-forward',
          model,
          pass: id,
          shards: list.map(({ shard, index }) => {
            const payload: DirectionPayload = {};
            if (direction) {
              const part = shardDirection(direction, shard);
              if (directionFlat) payload.parameters = { flat: directionFlat, names: directionNames };
              if (part.inputEmbeddings) payload.inputEmbeddings = part.inputEmbeddings as Float32Array[];
            }
            return { index, request: shardRequest(request, shard), ...(direction ? { direction: payload } : {}) };
          }),
        }),
      ),
    );
    const shardReads: ReadResultV1[][] = new Array(shards.length);
    const shardTangents: ReadResultV1[][] = new Array(shards.length);
    assigned.forEach((list, worker) =>
      list.forEach(({ index }, position) => {
        shardReads[index] = forwardReplies[worker]!.reads[position]!;
        if (direction) shardTangents[index] = forwardReplies[worker]!.tangents![position]!;
      }),
    );
    const reads = mergeShardReads(shardReads);
    const readTangents = direction ? mergeShardReads(shardTangents) : undefined;
    const seeds = pass.seedsOf(reads);
    const seedTangents = readTangents && pass.seedTangentsOf ? pass.seedTangentsOf(reads, readTangents) : undefined;

    // Backward passes in waves; after each, the wave's buffers are added into the totals.
    const total = targets.parameters ? sharedFloats(flat.total) : undefined;
    const totalTangent = targets.parameters && direction ? sharedFloats(flat.total) : undefined;
    const buffers = total ? Array.from({ length: workers }, () => sharedFloats(flat.total)) : [];
    const tangentBuffers = totalTangent ? Array.from({ length: workers }, () => sharedFloats(flat.total)) : [];
    const embeddings: (Float32Array[] | undefined)[] = new Array(shards.length);
    const tangentEmbeddings: (Float32Array[] | undefined)[] = new Array(shards.length);
    for (let waveStart = 0; waveStart < shards.length; waveStart += workers) {
      const wave = shards.slice(waveStart, waveStart + workers);
      const replies = await Promise.all(
        wave.map((shard, slot) =>
          run.call<ShardBackwardReply>(slot, {
            type: 'shard-backward',
            model,
            pass: id,
            shard: waveStart + slot,
            seeds: shardRows(seeds, shard),
            ...(seedTangents ? { seedTangents: shardRows(seedTangents, shard) } : {}),
            targets,
            hvp: direction !== undefined,
            ...(total ? { gradient: buffers[slot]! } : {}),
            ...(totalTangent ? { tangent: tangentBuffers[slot]! } : {}),
          }),
        ),
      );
      replies.forEach((reply, slot) => {
        embeddings[waveStart + slot] = reply.inputEmbeddings;
        tangentEmbeddings[waveStart + slot] = reply.tangentInputEmbeddings;
      });
      if (!total) continue;
      const sums = [{ total, addends: buffers.slice(0, wave.length), first: waveStart === 0 }];
      if (totalTangent) sums.push({ total: totalTangent, addends: tangentBuffers.slice(0, wave.length), first: waveStart === 0 });
      const step = Math.ceil(flat.total / workers);
      await Promise.all(
        Array.from({ length: workers }, (_, worker) =>
          run.call(worker, { type: 'reduce', sums, from: Math.min(flat.total, worker * step), to: Math.min(flat.total, (worker + 1) * step) }),
        ),
      );
    }
    // Plain arrays for the caller, not views of shared memory.
    const plain = (values: Float32Array | undefined) => (values ? values.slice() : undefined);
    return assemble(flat, pass, reads, readTangents, plain(total), plain(totalTangent), embeddings, tangentEmbeddings);
  }
}
