import type { BatchPlan } from './batch-plan.js';
import type { RowKeyValues } from './onnx-cache-handle.js';

export interface KvShape {
  layers: number;
  kvHeads: number;
  headDim: number;
}

/**
 * The `past_key_values.{layer}.key|value` data `[batch, kvHeads, pastLength, headDim]`: each
 * row's cached tokens in the first slots, zeros (masked) after them. Row caches are
 * `[kvHeads, length, headDim]`, so each head is one block copy.
 */
export function pastTensorData(pasts: readonly (RowKeyValues | null)[], plan: BatchPlan, shape: KvShape, layer: number, part: 'keys' | 'values'): Float32Array {
  const { kvHeads, headDim } = shape;
  const { pastLength } = plan;
  const data = new Float32Array(plan.batchSize * kvHeads * pastLength * headDim);
  pasts.forEach((past, row) => {
    if (past === null) return;
    const length = plan.rowPastLengths[row]!;
    const source = past[part][layer]!;
    for (let head = 0; head < kvHeads; head++) {
      const from = head * length * headDim;
      data.set(source.subarray(from, from + length * headDim), ((row * kvHeads + head) * pastLength) * headDim);
    }
  });
  return data;
}

/**
 * One row's cache after a forward: from each `present.*` output `[batch, kvHeads, past + sequence, headDim]`,
 * the row's cached slots followed by its real tokens' slots, packed to `[kvHeads, length, headDim]`.
 */
export function extractRowKeyValues(presents: { keys: Float32Array[]; values: Float32Array[] }, plan: BatchPlan, shape: KvShape, row: number): RowKeyValues {
  const { kvHeads, headDim, layers } = shape;
  const totalLength = plan.pastLength + plan.sequenceLength;
  const rowPast = plan.rowPastLengths[row]!;
  const columns = plan.realColumns[row]!;
  const length = rowPast + columns.length;
  // Runs of consecutive real columns, copied as blocks.
  const runs: { from: number; count: number }[] = [];
  for (const column of columns) {
    const last = runs[runs.length - 1];
    if (last && last.from + last.count === plan.pastLength + column) last.count++;
    else runs.push({ from: plan.pastLength + column, count: 1 });
  }
  const pack = (present: Float32Array): Float32Array => {
    const out = new Float32Array(kvHeads * length * headDim);
    for (let head = 0; head < kvHeads; head++) {
      const base = (row * kvHeads + head) * totalLength;
      let target = head * length * headDim;
      out.set(present.subarray(base * headDim, (base + rowPast) * headDim), target);
      target += rowPast * headDim;
      for (const run of runs) {
        out.set(present.subarray((base + run.from) * headDim, (base + run.from + run.count) * headDim), target);
        target += run.count * headDim;
      }
    }
    return out;
  };
  return {
    keys: Array.from({ length: layers }, (_, layer) => pack(presents.keys[layer]!)),
    values: Array.from({ length: layers }, (_, layer) => pack(presents.values[layer]!)),
  };
}
