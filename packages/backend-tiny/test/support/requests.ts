import type { ForwardRequestV1, ReadRequestV1 } from '@reward-lens/spec';

/** A padded batch: `padding` says on which side each shorter row is padded. */
export function batchRequest(
  rows: readonly (readonly number[])[],
  reads: (positionsOf: (row: number, tokenIndexes: readonly number[]) => number[]) => ReadRequestV1[],
  options: { padding?: 'left' | 'right'; sequenceLength?: number } = {},
): ForwardRequestV1 {
  const sequenceLength = options.sequenceLength ?? Math.max(...rows.map((row) => row.length));
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const offsets = rows.map((row) => (options.padding === 'left' ? sequenceLength - row.length : 0));
  rows.forEach((row, rowIndex) => {
    row.forEach((id, index) => {
      inputIds[rowIndex * sequenceLength + offsets[rowIndex]! + index] = id;
      attentionMask[rowIndex * sequenceLength + offsets[rowIndex]! + index] = 1;
    });
  });
  // Maps token indexes within a row to positions of the padded row.
  const positionsOf = (row: number, tokenIndexes: readonly number[]) => tokenIndexes.map((index) => offsets[row]! + index);
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, reads: reads(positionsOf) };
}

/** `[0, 1, ..., count - 1]`. */
export function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/** Largest absolute difference, relative to the largest magnitude of `expected` (at least 1e-3). */
export function relativeError(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  if (actual.length !== expected.length) throw new Error(`length ${actual.length} != ${expected.length}`);
  let difference = 0;
  let magnitude = 1e-3;
  for (let index = 0; index < expected.length; index++) {
    difference = Math.max(difference, Math.abs(actual[index]! - expected[index]!));
    magnitude = Math.max(magnitude, Math.abs(expected[index]!));
  }
  return difference / magnitude;
}
