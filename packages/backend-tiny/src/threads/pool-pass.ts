import type { ReadResultV1 } from '@reward-lens/spec';
import { assemble } from '../gradients/inline-pass.js';
import type { ShardedPass, ShardedPassResult } from '../gradients/sharded-pass.js';
import { type FlatParameters, type Shard, mergeShardReads, shardDirection, shardRequest, shardRows } from '../gradients/shards.js';
import type { DirectionPayload, ShardBackwardReply, ShardForwardReply } from './protocol.js';
import type { PoolRun } from './worker-pool.js';

let nextPass = 1;

/** Shared gradient buffers a pass may hold at once (one per shard in flight), in bytes. */
const GRADIENT_BUFFER_BYTES = 256 * 2 ** 20;

const sharedFloats = (length: number) => new Float32Array(new SharedArrayBuffer(Math.max(4, length * 4)));

/**
 * Which worker runs each shard, and in which rounds: with room for a buffer per shard, one
 * round, shards dealt longest first to the least loaded worker; else rounds of one shard per
 * worker, in shard order. Where a shard runs never changes a result.
 */
function schedule(shards: readonly Shard[], workers: number, bytesPerShard: number): { worker: number[]; rounds: number[][] } {
  if (shards.length * bytesPerShard <= GRADIENT_BUFFER_BYTES) {
    const load = new Array<number>(workers).fill(0);
    const worker = new Array<number>(shards.length);
    const order = shards.map((_, index) => index).sort((a, b) => shards[b]!.tokens - shards[a]!.tokens || a - b);
    for (const index of order) {
      const least = load.indexOf(Math.min(...load));
      worker[index] = least;
      load[least]! += shards[index]!.tokens;
    }
    return { worker, rounds: [shards.map((_, index) => index)] };
  }
  const rounds: number[][] = [];
  for (let start = 0; start < shards.length; start += workers) rounds.push(shards.slice(start, start + workers).map((_, slot) => start + slot));
  return { worker: shards.map((_, index) => index % workers), rounds };
}

/**
 * A sharded pass on `threads` workers of the pool: each shard is recorded and differentiated on
 * one worker; the loss runs here on the whole request's reads; the backward passes write each
 * shard's gradient into a shared buffer of its own, and after each round of them the workers add
 * the round's buffers into the total, each over its range of the parameters, in shard order. So
 * every parameter's gradient is the same sum, in the same order, as on one thread.
 */
export async function runShardedPassOnPool(run: PoolRun, model: number, threads: number, flat: FlatParameters, pass: ShardedPass): Promise<ShardedPassResult> {
  const { request, shards, targets, direction } = pass;
  const workers = Math.min(threads, shards.length);
  const id = nextPass++;
  const directionFlat = direction?.parameters ? flat.flatten(direction.parameters, sharedFloats(flat.total)) : undefined;
  const directionNames = direction?.parameters ? [...direction.parameters.keys()] : [];
  const buffersPerShard = targets.parameters ? (direction ? 2 : 1) : 0;
  const { worker: workerOf, rounds } = schedule(shards, workers, buffersPerShard * flat.total * 4);
  const byWorker = (indices: readonly number[]) => Array.from({ length: workers }, (_, worker) => indices.filter((index) => workerOf[index] === worker));

  // Forward passes, each worker its shards in one message.
  const assigned = byWorker(shards.map((_, index) => index));
  const forwardReplies = await Promise.all(
    assigned.map((list, worker) =>
      run.call<ShardForwardReply>(worker, {
        type: 'shard-forward',
        model,
        pass: id,
        shards: list.map((index) => {
          const shard = shards[index]!;
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
    list.forEach((index, position) => {
      shardReads[index] = forwardReplies[worker]!.reads[position]!;
      if (direction) shardTangents[index] = forwardReplies[worker]!.tangents![position]!;
    }),
  );
  const reads = mergeShardReads(shardReads);
  const readTangents = direction ? mergeShardReads(shardTangents) : undefined;
  const seeds = pass.seedsOf(reads);
  const seedTangents = readTangents && pass.seedTangentsOf ? pass.seedTangentsOf(reads, readTangents) : undefined;

  // Backward passes round by round; after each, the round's buffers are added into the totals.
  const total = targets.parameters ? sharedFloats(flat.total) : undefined;
  const totalTangent = targets.parameters && direction ? sharedFloats(flat.total) : undefined;
  const slots = Math.max(...rounds.map((round) => round.length));
  const buffers = total ? Array.from({ length: slots }, () => sharedFloats(flat.total)) : [];
  const tangentBuffers = totalTangent ? Array.from({ length: slots }, () => sharedFloats(flat.total)) : [];
  const embeddings: (Float32Array[] | undefined)[] = new Array(shards.length);
  const tangentEmbeddings: (Float32Array[] | undefined)[] = new Array(shards.length);
  for (const [roundIndex, round] of rounds.entries()) {
    const slotOf = new Map(round.map((index, slot) => [index, slot]));
    const lists = byWorker(round);
    const replies = await Promise.all(
      lists.map((list, worker) =>
        run.call<ShardBackwardReply[]>(worker, {
          type: 'shard-backward',
          model,
          pass: id,
          targets,
          hvp: direction !== undefined,
          shards: list.map((index) => ({
            shard: index,
            seeds: shardRows(seeds, shards[index]!),
            ...(seedTangents ? { seedTangents: shardRows(seedTangents, shards[index]!) } : {}),
            ...(total ? { gradient: buffers[slotOf.get(index)!]! } : {}),
            ...(totalTangent ? { tangent: tangentBuffers[slotOf.get(index)!]! } : {}),
          })),
        }),
      ),
    );
    lists.forEach((list, worker) =>
      list.forEach((index, position) => {
        embeddings[index] = replies[worker]![position]!.inputEmbeddings;
        tangentEmbeddings[index] = replies[worker]![position]!.tangentInputEmbeddings;
      }),
    );
    if (!total) continue;
    // The round's shards in shard order (a round holds consecutive shards, or all of them).
    const ordered = [...round].sort((a, b) => a - b).map((index) => slotOf.get(index)!);
    const sums = [{ total, addends: ordered.map((slot) => buffers[slot]!), first: roundIndex === 0 }];
    if (totalTangent) sums.push({ total: totalTangent, addends: ordered.map((slot) => tangentBuffers[slot]!), first: roundIndex === 0 });
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
