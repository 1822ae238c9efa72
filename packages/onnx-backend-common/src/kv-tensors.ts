import type { BatchPlan } from './batch-plan.js';
import { StoredRow, ViewGroup, type KvArray, type RowKeyValues } from './stored-row.js';

export interface KvShape {
  layers: number;
  kvHeads: number;
  headDim: number;
  /** How the graph's cache inputs and outputs hold their values. */
  floatType: 'float32' | 'float16';
}

/** A cache array of `length` values of the graph's float type. */
export function kvArray(shape: Pick<KvShape, 'floatType'>, length: number): KvArray {
  return shape.floatType === 'float16' ? new Uint16Array(length) : new Float32Array(length);
}

/** A view of `length` values from `byteOffset` of `like`'s buffer, of `like`'s type. */
function kvView(like: KvArray, byteOffset: number, length: number): KvArray {
  return like instanceof Uint16Array ? new Uint16Array(like.buffer, byteOffset, length) : new Float32Array(like.buffer, byteOffset, length);
}

type Part = keyof RowKeyValues;

/**
 * The `past_key_values.{layer}.key|value` data `[batch, kvHeads, pastLength, headDim]` per layer:
 * each row's cached tokens in the first slots, zeros (masked) after them.
 *
 * Row caches are `[kvHeads, length, headDim]`, which is already the layout of a batch of one:
 * one row's past, or rows of the full past length lying back to back in one buffer (a batch
 * kept as views of its outputs, fed again in order), is fed as it is stored, without a copy.
 * Otherwise each row is copied in, one block per row, or per head when it is shorter.
 */
export function pastFeedData(pasts: readonly (RowKeyValues | null)[], plan: BatchPlan, shape: KvShape): RowKeyValues {
  const feed = (part: Part) =>
    Array.from({ length: shape.layers }, (_, layer) => storedSpan(pasts, plan, part, layer) ?? packPast(pasts, plan, shape, layer, part));
  return { keys: feed('keys'), values: feed('values') };
}

/** The rows' stored arrays of one layer as one view, when they are back to back at the full past length. */
function storedSpan(pasts: readonly (RowKeyValues | null)[], plan: BatchPlan, part: Part, layer: number): KvArray | undefined {
  const first = pasts[0]?.[part][layer];
  if (first === undefined || plan.pastLength === 0 || plan.rowPastLengths.some((length) => length !== plan.pastLength)) return undefined;
  let end = first.byteOffset + first.byteLength;
  for (let row = 1; row < pasts.length; row++) {
    const next = pasts[row]?.[part][layer];
    if (next === undefined || next.buffer !== first.buffer || next.byteOffset !== end) return undefined;
    end += next.byteLength;
  }
  return pasts.length === 1 ? first : kvView(first, first.byteOffset, (end - first.byteOffset) / first.BYTES_PER_ELEMENT);
}

function packPast(pasts: readonly (RowKeyValues | null)[], plan: BatchPlan, shape: KvShape, layer: number, part: Part): KvArray {
  const { kvHeads, headDim } = shape;
  const { pastLength } = plan;
  const data = kvArray(shape, plan.batchSize * kvHeads * pastLength * headDim);
  pasts.forEach((past, row) => {
    if (past === null) return;
    const length = plan.rowPastLengths[row]!;
    const source = past[part][layer]!;
    if (length === pastLength) {
      data.set(source, row * kvHeads * pastLength * headDim);
      return;
    }
    for (let head = 0; head < kvHeads; head++) {
      const from = head * length * headDim;
      data.set(source.subarray(from, from + length * headDim), (row * kvHeads + head) * pastLength * headDim);
    }
  });
  return data;
}

/**
 * Each row's cache after a forward, from the `present.*` outputs `[batch, kvHeads, past + sequence, headDim]`
 * per layer: the row's cached slots followed by its real tokens' slots, as `[kvHeads, length, headDim]`.
 *
 * A row that fills its slot of the outputs (the full past, no padding: always so for a batch of
 * one without padding) is that slot as it is, a view without a copy, when such rows are more than
 * half the batch (so that views keep no more than twice their size alive; see `ViewGroup`).
 * Other rows are copied out, one block per run of consecutive real slots per head.
 */
export function rowsOfPresents(presents: RowKeyValues, plan: BatchPlan, shape: KvShape, cacheLengths?: readonly number[]): StoredRow[] {
  const totalLength = plan.pastLength + plan.sequenceLength;
  const rowSize = shape.kvHeads * totalLength * shape.headDim;
  // With `cacheLengths`, a row keeps its first real columns only (those after are run, not cached).
  const keptColumns = plan.realColumns.map((columns, row) =>
    cacheLengths === undefined ? columns : columns.slice(0, cacheLengths[row]! - plan.rowPastLengths[row]!),
  );
  const fills = (row: number) => plan.rowPastLengths[row] === plan.pastLength && keptColumns[row]!.length === plan.sequenceLength;
  const filling = Array.from({ length: plan.batchSize }, (_, row) => fills(row));
  const viewCount = filling.filter(Boolean).length;
  const group = viewCount * 2 > plan.batchSize ? new ViewGroup(plan.batchSize) : undefined;
  return filling.map((fillsSlot, row) => {
    if (group === undefined || !fillsSlot) return new StoredRow(packRow(presents, plan, shape, row, keptColumns[row]!));
    const view = (present: KvArray) => (plan.batchSize === 1 ? present : present.subarray(row * rowSize, (row + 1) * rowSize));
    return new StoredRow({ keys: presents.keys.map(view), values: presents.values.map(view) }, group);
  });
}

function packRow(presents: RowKeyValues, plan: BatchPlan, shape: KvShape, row: number, columns: readonly number[]): RowKeyValues {
  const { kvHeads, headDim } = shape;
  const totalLength = plan.pastLength + plan.sequenceLength;
  const rowPast = plan.rowPastLengths[row]!;
  // Runs of consecutive slots (the cached ones, then the real columns), copied as blocks.
  const runs: { from: number; count: number }[] = rowPast > 0 ? [{ from: 0, count: rowPast }] : [];
  for (const column of columns) {
    const slot = plan.pastLength + column;
    const last = runs[runs.length - 1];
    if (last && last.from + last.count === slot) last.count++;
    else runs.push({ from: slot, count: 1 });
  }
  const length = rowPast + columns.length;
  const pack = (present: KvArray): KvArray => {
    const out = kvArray(shape, kvHeads * length * headDim);
    let target = 0;
    for (let head = 0; head < kvHeads; head++) {
      const base = (row * kvHeads + head) * totalLength;
      for (const run of runs) {
        out.set(present.subarray((base + run.from) * headDim, (base + run.from + run.count) * headDim), target);
        target += run.count * headDim;
      }
    }
    return out;
  };
  return { keys: presents.keys.map(pack), values: presents.values.map(pack) };
}
