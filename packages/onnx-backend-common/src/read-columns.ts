import type { BatchPlan } from './batch-plan.js';

/**
 * The columns fed to a head's `read_positions.*` input: per row, every column the head's reads
 * ask for, once (two reads of one head, say two sets of LM columns, share them), padded with
 * column 0 to the longest row (and to one column at least). `slotOf[read][row][k]` is where the
 * k-th position of that read sits in its row's list, so the `read.*` output
 * `[batch, readLength, width]` holds it at `row * readLength + slot`.
 */
export interface ReadColumns {
  readLength: number;
  /** `[batch, readLength]`, row-major. */
  columns: BigInt64Array;
  slotOf: number[][][];
}

export function planReadColumns(readPositions: readonly (readonly (readonly number[])[])[], plan: BatchPlan, requestLength: number): ReadColumns {
  const { batchSize } = plan;
  const rowColumns: number[][] = Array.from({ length: batchSize }, () => []);
  const rowSlots = Array.from({ length: batchSize }, () => new Map<number, number>());
  const slotOf = readPositions.map((positions) =>
    positions.map((rowPositions, row) =>
      rowPositions.map((position) => {
        const column = plan.columnOf[row * requestLength + position]!;
        let slot = rowSlots[row]!.get(column);
        if (slot === undefined) {
          slot = rowColumns[row]!.push(column) - 1;
          rowSlots[row]!.set(column, slot);
        }
        return slot;
      }),
    ),
  );
  const readLength = Math.max(1, ...rowColumns.map((columns) => columns.length));
  const columns = new BigInt64Array(batchSize * readLength);
  rowColumns.forEach((list, row) => list.forEach((column, slot) => (columns[row * readLength + slot] = BigInt(column))));
  return { readLength, columns, slotOf };
}
