import type { ForwardRequestV1, ReadRequestV1 } from '@reward-lens/spec';

export interface TestRow {
  ids: readonly number[];
  /** Padding before the tokens; default 0 (right padding to the longest row). */
  leftPadding?: number;
}

/** A padded batch reading `read(positions of each row's real tokens)`. */
export function batchOf(rows: readonly TestRow[], read: (positions: number[][]) => ReadRequestV1[] | ReadRequestV1): ForwardRequestV1 {
  const sequenceLength = Math.max(...rows.map((row) => row.ids.length + (row.leftPadding ?? 0)));
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const positions = rows.map((row, index) => {
    const start = index * sequenceLength + (row.leftPadding ?? 0);
    inputIds.set(row.ids, start);
    attentionMask.fill(1, start, start + row.ids.length);
    return row.ids.map((_, token) => (row.leftPadding ?? 0) + token);
  });
  const reads = read(positions);
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, reads: Array.isArray(reads) ? reads : [reads] };
}

export const valueAt = (positions: number[][]): ReadRequestV1 => ({ kind: 'head', head: 'value', positions });

export function idsOf(length: number, seed: number, vocabSize = 512): number[] {
  return Array.from({ length }, (_, index) => (index * 31 + seed * 17 + 2) % vocabSize);
}
