import type { BackwardRequestV1, ReadGradientsV1, ReadResultV1, TangentV1 } from '@reward-lens/spec';

/**
 * A request's rows `rowStart..rowEnd`: the unit of data-parallel gradients. Each shard's
 * gradient is computed on its own (into zeroed buffers) and the shards' gradients are summed in
 * shard order, so the result depends on where the shards are cut, never on how many threads ran
 * them. The cuts depend only on the request and the shard size.
 */
export interface Shard {
  rowStart: number;
  rowEnd: number;
  tokens: number;
}

/** The default shard size: rows are grouped in order while they fit in this many real tokens. */
export const DEFAULT_SHARD_TOKENS = 256;

/** The pass request a shard's forward runs: the forward part of a backward request, with its own input embeddings. */
export type ShardRequest = Pick<BackwardRequestV1, 'batchSize' | 'sequenceLength' | 'inputIds' | 'attentionMask' | 'reads' | 'inputEmbeddings'>;

/** Rows grouped in order while their real tokens fit in `shardTokens` (a longer row is a shard of its own). */
export function planShards(request: Pick<BackwardRequestV1, 'batchSize' | 'sequenceLength' | 'attentionMask'>, shardTokens: number): Shard[] {
  const { batchSize, sequenceLength, attentionMask } = request;
  const shards: Shard[] = [];
  let current: Shard | undefined;
  for (let row = 0; row < batchSize; row++) {
    let tokens = 0;
    for (let column = 0; column < sequenceLength; column++) tokens += attentionMask[row * sequenceLength + column] === 0 ? 0 : 1;
    if (current && current.tokens + tokens > shardTokens && current.tokens > 0) {
      shards.push(current);
      current = undefined;
    }
    current ??= { rowStart: row, rowEnd: row, tokens: 0 };
    current.rowEnd = row + 1;
    current.tokens += tokens;
  }
  if (current) shards.push(current);
  return shards;
}

/** The shard's rows of a request (same sequence length; views, not copies). */
export function shardRequest(request: ShardRequest, shard: Shard): ShardRequest {
  const { sequenceLength } = request;
  const from = shard.rowStart * sequenceLength;
  const to = shard.rowEnd * sequenceLength;
  return {
    batchSize: shard.rowEnd - shard.rowStart,
    sequenceLength,
    inputIds: request.inputIds.subarray(from, to),
    attentionMask: request.attentionMask.subarray(from, to),
    reads: request.reads.map((read) => ({ ...read, positions: read.positions.slice(shard.rowStart, shard.rowEnd) })),
    ...(request.inputEmbeddings ? { inputEmbeddings: request.inputEmbeddings.slice(shard.rowStart, shard.rowEnd) } : {}),
  };
}

/** The shard's part of a direction: the same parameter tangents, its rows' input-embedding tangents. */
export function shardDirection(direction: TangentV1, shard: Shard): TangentV1 {
  return {
    ...(direction.parameters ? { parameters: direction.parameters } : {}),
    ...(direction.inputEmbeddings ? { inputEmbeddings: direction.inputEmbeddings.slice(shard.rowStart, shard.rowEnd) } : {}),
  };
}

/** The shard's rows of per-read, per-row arrays (read gradients and their tangents). */
export function shardRows(gradients: ReadGradientsV1, shard: Shard): ReadGradientsV1 {
  return gradients.map((rows) => rows.slice(shard.rowStart, shard.rowEnd));
}

/** The request's reads from its shards' reads, rows in order. */
export function mergeShardReads(perShard: readonly (readonly ReadResultV1[])[]): ReadResultV1[] {
  const first = perShard[0] ?? [];
  return first.map((read, index) => ({ width: read.width, values: perShard.flatMap((reads) => reads[index]!.values) }));
}

/** Rows of per-row arrays from shards, in order (input-embedding gradients). */
export function mergeShardRows(perShard: readonly (readonly Float32Array[] | undefined)[]): Float32Array[] | undefined {
  if (perShard.some((rows) => rows === undefined)) return undefined;
  return perShard.flatMap((rows) => rows!);
}

/**
 * Every parameter tensor as a range of one flat array, in a fixed order: shards' gradients are
 * flat buffers that threads add up range by range.
 */
export class FlatParameters {
  readonly total: number;
  readonly #ranges: [name: string, offset: number, length: number][] = [];

  constructor(sizes: ReadonlyMap<string, number>) {
    let offset = 0;
    for (const [name, length] of sizes) {
      this.#ranges.push([name, offset, length]);
      offset += length;
    }
    this.total = offset;
  }

  /** Views of a flat buffer, by tensor name. */
  views(flat: Float32Array): Map<string, Float32Array> {
    return new Map(this.#ranges.map(([name, offset, length]) => [name, flat.subarray(offset, offset + length)]));
  }

  /** Copies of a flat buffer's tensors, by name (plain arrays the caller owns). */
  copies(flat: Float32Array): Map<string, Float32Array> {
    return new Map(this.#ranges.map(([name, offset, length]) => [name, flat.slice(offset, offset + length)]));
  }

  /** A map of tensors as one flat array (missing tensors are zero). */
  flatten(tensors: ReadonlyMap<string, Float32Array> | undefined, into: Float32Array): Float32Array {
    into.fill(0);
    if (tensors)
      for (const [name, offset] of this.#ranges) {
        const values = tensors.get(name);
        if (values) into.set(values.subarray(0, Math.min(values.length, into.length - offset)), offset);
      }
    return into;
  }
}

/** `total[i] += addend[i]` for `from <= i < to`: the fixed-order sum of shard gradients, range by range. */
export function addRange(total: Float32Array, addend: Float32Array, from: number, to: number): void {
  for (let index = from; index < to; index++) total[index] = total[index]! + addend[index]!;
}
