import type { MergePiece } from './default-merges.js';
import { encodeUtf8 } from './utf8-bytes.js';

/** Ids 0..2; the 256 bytes follow, then the merges in rank order. */
export const specialTokens = ['<pad>', '<s>', '</s>'] as const;
export const padTokenId = 0;
export const bosTokenId = 1;
export const eosTokenId = 2;
export const firstByteTokenId = specialTokens.length;
export const firstMergeTokenId = firstByteTokenId + 256;

/** The tables BPE needs, built once from a merge list. */
export interface ByteBpeVocabulary {
  /** Ids of the specials, the bytes and the merges (added tokens come after these). */
  readonly size: number;
  /** Per id, the bytes it stands for; empty for the specials. */
  readonly tokenBytes: readonly Uint8Array[];
  /** `pairRank[left * size + right]`: the rank of the merge of two ids, or -1 when they do not merge. */
  readonly pairRank: Int32Array;
  /** Bytes (as a latin1 key) to id, for `tokenToId` on single pieces. */
  readonly idByBytesKey: ReadonlyMap<string, number>;
}

/** A string whose char codes are the bytes: a cheap Map key for byte sequences. */
export function bytesKey(bytes: Uint8Array): string {
  let key = '';
  for (const byte of bytes) key += String.fromCharCode(byte);
  return key;
}

function pieceBytes(piece: MergePiece): Uint8Array {
  return typeof piece === 'string' ? encodeUtf8(piece) : Uint8Array.from(piece);
}

/**
 * Builds the vocabulary. Throws (a programming error in the data, not user input) when a merge
 * names a piece that is not yet a token or makes a token that already exists, since either would
 * leave ids that no text can produce.
 */
export function buildByteBpeVocabulary(merges: readonly (readonly [MergePiece, MergePiece])[]): ByteBpeVocabulary {
  const size = firstMergeTokenId + merges.length;
  const tokenBytes: Uint8Array[] = specialTokens.map(() => new Uint8Array(0));
  const idByBytesKey = new Map<string, number>();
  for (let byte = 0; byte < 256; byte += 1) {
    tokenBytes.push(Uint8Array.of(byte));
    idByBytesKey.set(String.fromCharCode(byte), firstByteTokenId + byte);
  }
  const pairRank = new Int32Array(size * size).fill(-1);
  merges.forEach(([left, right], rank) => {
    const leftBytes = pieceBytes(left);
    const rightBytes = pieceBytes(right);
    const leftId = idByBytesKey.get(bytesKey(leftBytes));
    const rightId = idByBytesKey.get(bytesKey(rightBytes));
    if (leftId === undefined || rightId === undefined) {
      throw new Error(`merge ${rank} (${JSON.stringify([left, right])}) names a piece that is not a token yet`);
    }
    const mergedBytes = new Uint8Array(leftBytes.length + rightBytes.length);
    mergedBytes.set(leftBytes, 0);
    mergedBytes.set(rightBytes, leftBytes.length);
    const mergedKey = bytesKey(mergedBytes);
    if (idByBytesKey.has(mergedKey)) {
      throw new Error(`merge ${rank} (${JSON.stringify([left, right])}) makes a token that already exists`);
    }
    const mergedId = firstMergeTokenId + rank;
    tokenBytes.push(mergedBytes);
    idByBytesKey.set(mergedKey, mergedId);
    pairRank[leftId * size + rightId] = rank;
  });
  return { size, tokenBytes, pairRank, idByBytesKey };
}
