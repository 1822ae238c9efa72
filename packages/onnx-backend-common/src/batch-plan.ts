import type { ForwardRequestV1 } from '@reward-lens/spec';

/**
 * How a request's padded batch is laid out for the graph.
 *
 * The graph sees `[batch, pastLength + sequenceLength]` in `attention_mask`: each row's cached
 * tokens first, in slots `0 .. rowPastLength` (the rest of the past slots masked: rows with
 * shorter or no pasts are padded there), then the new tokens, padded as the request pads them
 * or, with `padding`, moved to one side.
 */
export interface BatchPlan {
  batchSize: number;
  sequenceLength: number;
  pastLength: number;
  rowPastLengths: number[];
  /** `[batch * request.sequenceLength]`: the graph column of each request cell, -1 for padding. */
  columnOf: Int32Array;
  /** Per row, the graph columns of its real tokens, in order. */
  realColumns: number[][];
  inputIds: BigInt64Array;
  /** `[batch, pastLength + sequenceLength]`. */
  attentionMask: BigInt64Array;
  /** A real token's position: real tokens before it in its row, plus the row's past length. */
  positionIds: BigInt64Array;
}

export function planBatch(
  request: ForwardRequestV1,
  realTokens: readonly number[],
  rowPastLengths: number[],
  padding: 'left' | 'right' | undefined,
): BatchPlan {
  const { batchSize, sequenceLength: requestLength, inputIds, attentionMask } = request;
  const sequenceLength = padding === undefined ? requestLength : Math.max(1, ...realTokens);
  const pastLength = Math.max(0, ...rowPastLengths);
  const totalLength = pastLength + sequenceLength;
  const columnOf = new Int32Array(batchSize * requestLength).fill(-1);
  const realColumns: number[][] = [];
  const ids = new BigInt64Array(batchSize * sequenceLength);
  const mask = new BigInt64Array(batchSize * totalLength);
  const positions = new BigInt64Array(batchSize * sequenceLength);

  for (let row = 0; row < batchSize; row++) {
    const rowPast = rowPastLengths[row]!;
    mask.fill(1n, row * totalLength, row * totalLength + rowPast);
    const columns: number[] = [];
    let next = padding === 'left' ? sequenceLength - realTokens[row]! : 0;
    for (let column = 0; column < requestLength; column++) {
      const cell = row * requestLength + column;
      if (attentionMask[cell] === 0) continue;
      const target = padding === undefined ? column : next++;
      columnOf[cell] = target;
      ids[row * sequenceLength + target] = BigInt(inputIds[cell]!);
      positions[row * sequenceLength + target] = BigInt(rowPast + columns.length);
      mask[row * totalLength + pastLength + target] = 1n;
      columns.push(target);
    }
    realColumns.push(columns);
  }
  return { batchSize, sequenceLength, pastLength, rowPastLengths, columnOf, realColumns, inputIds: ids, attentionMask: mask, positionIds: positions };
}
