import { type ForwardRequestV1, type ReadRequestV1, createSeededRandom } from '@reward-lens/spec';

import { createByteBpeTokenizer } from '@reward-lens/tokenizers';

/** BOS and the byte-BPE ids of `text`: the seeded models' tokenizer. */
export function tokens(text: string): Int32Array {
  const tokenizer = createByteBpeTokenizer();
  return Int32Array.from([tokenizer.bosTokenId!, ...tokenizer.encode(text).ids]);
}

/** Deterministic token ids in `[0, vocabSize)`, for models whose tokenizer the kit does not know. */
export function seededIds(count: number, vocabSize: number, seed: number): Int32Array {
  const random = createSeededRandom(seed);
  return Int32Array.from({ length: count }, () => Math.floor(random() * vocabSize));
}

/** Every index of a row of `length` tokens. */
export function allPositions(length: number): number[] {
  return Array.from({ length }, (_, index) => index);
}

/**
 * A padded batch of `rows` (padded on `side`); `read` gets each row's positions in the padded
 * batch for the given token indices of that row (all of them when `pick` is absent).
 */
export function batchOf(
  rows: readonly Int32Array[],
  side: 'left' | 'right',
  read: (positions: number[][]) => ReadRequestV1 | ReadRequestV1[],
  pick?: (row: number, length: number) => number[],
): ForwardRequestV1 {
  const sequenceLength = Math.max(...rows.map((row) => row.length));
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const positions: number[][] = [];
  rows.forEach((row, index) => {
    const shift = side === 'left' ? sequenceLength - row.length : 0;
    inputIds.set(row, index * sequenceLength + shift);
    attentionMask.fill(1, index * sequenceLength + shift, index * sequenceLength + shift + row.length);
    positions.push((pick ? pick(index, row.length) : allPositions(row.length)).map((position) => position + shift));
  });
  const reads = read(positions);
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, reads: Array.isArray(reads) ? reads : [reads] };
}

export const valueRead =
  (head = 'value') =>
  (positions: number[][]): ReadRequestV1 => ({ kind: 'head', head, positions });
