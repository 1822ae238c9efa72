import { firstByteTokenId, firstMergeTokenId, type ByteBpeVocabulary } from './byte-bpe-vocabulary.js';
import { NumberMinHeap } from './min-heap.js';

export interface MergedTokens {
  ids: number[];
  /** Per token, the index of its first byte; a token ends where the next one starts. */
  byteStarts: number[];
}

/**
 * Byte-pair encoding of one chunk: repeatedly merge the adjacent pair with the lowest rank (the
 * leftmost one on a tie) until no pair merges.
 *
 * The symbols form a linked list over byte positions (a merged symbol keeps its left position), and
 * candidate pairs sit in a heap keyed by `rank * length + position`. Entries go stale when a
 * neighbour merges; they are checked when popped rather than removed, which keeps the whole pass
 * O(n log n) instead of the O(n^2) of rescanning the sequence after every merge.
 */
export function mergeBytePairs(bytes: Uint8Array, vocabulary: ByteBpeVocabulary): MergedTokens {
  const length = bytes.length;
  const { pairRank, size } = vocabulary;
  const ids = new Int32Array(length);
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  for (let position = 0; position < length; position += 1) {
    ids[position] = firstByteTokenId + bytes[position]!;
    next[position] = position + 1 < length ? position + 1 : -1;
    previous[position] = position - 1;
  }

  const heap = new NumberMinHeap();
  const rankAt = (position: number): number => {
    const right = next[position]!;
    return right === -1 ? -1 : pairRank[ids[position]! * size + ids[right]!]!;
  };
  const pushPair = (position: number): void => {
    const rank = rankAt(position);
    if (rank >= 0) heap.push(rank * length + position);
  };
  for (let position = 0; position + 1 < length; position += 1) pushPair(position);

  for (let key = heap.pop(); key !== undefined; key = heap.pop()) {
    const rank = Math.floor(key / length);
    const position = key - rank * length;
    // A rank names exactly one pair, so an unchanged rank at this position means the pair is still there.
    if (ids[position] === -1 || rankAt(position) !== rank) continue;
    const right = next[position]!;
    const afterRight = next[right]!;
    ids[position] = firstMergeTokenId + rank;
    ids[right] = -1;
    next[position] = afterRight;
    if (afterRight !== -1) previous[afterRight] = position;
    if (previous[position]! !== -1) pushPair(previous[position]!);
    pushPair(position);
  }

  const merged: MergedTokens = { ids: [], byteStarts: [] };
  for (let position = length > 0 ? 0 : -1; position !== -1; position = next[position]!) {
    merged.ids.push(ids[position]!);
    merged.byteStarts.push(position);
  }
  return merged;
}
