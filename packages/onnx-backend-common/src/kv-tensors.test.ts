import { BackendContractError } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { planBatch, type BatchPlan } from './batch-plan.js';
import { pastFeedData, rowsOfPresents, type KvShape } from './kv-tensors.js';
import { BackendCacheHandle } from '@reward-lens/spec/internal';
import type { RowKeyValues } from './stored-row.js';

const shape: KvShape = { layers: 2, kvHeads: 2, headDim: 2, floatType: 'float32' };

/** A plan for rows of `lengths` real tokens (right-padded) after pasts of `pastLengths`. */
function plan(lengths: number[], pastLengths: number[]): BatchPlan {
  const sequenceLength = Math.max(...lengths);
  const attentionMask = new Uint8Array(lengths.length * sequenceLength);
  lengths.forEach((length, row) => attentionMask.fill(1, row * sequenceLength, row * sequenceLength + length));
  const request = { batchSize: lengths.length, sequenceLength, inputIds: new Int32Array(attentionMask.length), attentionMask, reads: [] };
  return planBatch(request, lengths, pastLengths, undefined);
}

/** `present.*` outputs whose every value says where it sits: part, layer, row, head, slot, index. */
function presentsOf(batchPlan: BatchPlan): RowKeyValues {
  const total = batchPlan.pastLength + batchPlan.sequenceLength;
  const tensor = (part: number, layer: number) =>
    Float32Array.from({ length: batchPlan.batchSize * shape.kvHeads * total * shape.headDim }, (_, index) => {
      const within = index % shape.headDim;
      const slot = Math.floor(index / shape.headDim) % total;
      const head = Math.floor(index / (shape.headDim * total)) % shape.kvHeads;
      const row = Math.floor(index / (shape.headDim * total * shape.kvHeads));
      return part * 100000 + layer * 10000 + row * 1000 + head * 100 + slot * 10 + within;
    });
  return { keys: [tensor(0, 0), tensor(0, 1)], values: [tensor(1, 0), tensor(1, 1)] };
}

/** The values a row's `[kvHeads, length, headDim]` cache should hold: its `slots` of the outputs. */
function expectedRow(part: number, layer: number, row: number, slots: number[]): Float32Array {
  const values: number[] = [];
  for (let head = 0; head < shape.kvHeads; head++) {
    for (const slot of slots)
      for (let within = 0; within < shape.headDim; within++) values.push(part * 100000 + layer * 10000 + row * 1000 + head * 100 + slot * 10 + within);
  }
  return Float32Array.from(values);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);
const owner = { name: 'onnx-fake' };

describe('KV cache tensors', () => {
  it('keeps a batch of one as its outputs and feeds them back as they are', () => {
    const first = plan([3], [0]);
    const presents = presentsOf(first);
    const [row] = rowsOfPresents(presents, first, shape);
    expect(row!.data.keys[1]).toBe(presents.keys[1]);
    expect(row!.data.values[0]).toBe(presents.values[0]);
    const fed = pastFeedData([row!.data], plan([2], [3]), shape);
    expect(fed.keys[1]).toBe(presents.keys[1]);
  });

  it('keeps full rows as views when they are most of the batch, copies padded rows, and packs pasts of any layout', () => {
    // Row 1 is padded (one real token of two): copied out; rows 0 and 2 are views of the outputs.
    const first = plan([2, 1, 2], [3, 3, 3]);
    const presents = presentsOf(first);
    const rows = rowsOfPresents(presents, first, shape).map((row) => row.data);
    expect(rows[0]!.keys[0]!.buffer).toBe(presents.keys[0]!.buffer);
    expect(rows[2]!.values[1]!.buffer).toBe(presents.values[1]!.buffer);
    expect(rows[1]!.keys[0]!.buffer).not.toBe(presents.keys[0]!.buffer);
    for (const [index, slots] of [range(0, 5), range(0, 4), range(0, 5)].entries()) {
      expect(rows[index]!.keys[1]).toEqual(expectedRow(0, 1, index, slots));
      expect(rows[index]!.values[0]).toEqual(expectedRow(1, 0, index, slots));
    }

    // Two of three rows padded: every row is copied, nothing keeps the outputs alive.
    const mostlyPadded = plan([2, 1, 1], [0, 0, 0]);
    const copies = rowsOfPresents(presentsOf(mostlyPadded), mostlyPadded, shape).map((row) => row.data);
    expect(copies[0]!.keys[0]).toEqual(expectedRow(0, 0, 0, [0, 1]));
    expect(copies[2]!.values[1]).toEqual(expectedRow(1, 1, 2, [0]));

    // Rows 0 and 2 back to back? No: row 1 lies between them, so they are packed.
    const next = plan([1, 1], [5, 5]);
    const packed = pastFeedData([rows[0]!, rows[2]!], next, shape);
    expect(packed.keys[0]!.buffer).not.toBe(presents.keys[0]!.buffer);
    expect(packed.keys[0]).toEqual(Float32Array.from([...expectedRow(0, 0, 0, range(0, 5)), ...expectedRow(0, 0, 2, range(0, 5))]));

    // Pasts of different lengths: each row's first slots, zeros after them.
    const mixed = pastFeedData([rows[1]!, null, rows[0]!], plan([1, 1, 1], [4, 0, 5]), shape);
    const zeros = (count: number) => new Array<number>(count * shape.headDim).fill(0);
    const row1 = expectedRow(1, 1, 1, range(0, 4));
    const perHead = 4 * shape.headDim;
    expect(mixed.values[1]).toEqual(
      Float32Array.from([
        ...row1.subarray(0, perHead),
        ...zeros(1),
        ...row1.subarray(perHead),
        ...zeros(1),
        ...zeros(10),
        ...expectedRow(1, 1, 0, range(0, 5)),
      ]),
    );
  });

  it('feeds rows lying back to back in one output, in order, as one view of it', () => {
    const first = plan([2, 2, 2], [0, 0, 0]);
    const presents = presentsOf(first);
    const rows = rowsOfPresents(presents, first, shape).map((row) => row.data);
    const inOrder = pastFeedData(rows, plan([1, 1, 1], [2, 2, 2]), shape);
    expect(inOrder.keys[1]!.buffer).toBe(presents.keys[1]!.buffer);
    expect(inOrder.keys[1]).toEqual(presents.keys[1]);
    const tail = pastFeedData(rows.slice(1), plan([1, 1], [2, 2]), shape);
    expect(tail.values[0]!.buffer).toBe(presents.values[0]!.buffer);
    expect(tail.values[0]).toEqual(presents.values[0]!.subarray(rows[0]!.values[0]!.length));
    const reversed = pastFeedData([rows[1]!, rows[0]!], plan([1, 1], [2, 2]), shape);
    expect(reversed.keys[0]).toEqual(Float32Array.from([...expectedRow(0, 0, 1, [0, 1]), ...expectedRow(0, 0, 0, [0, 1])]));
  });

  it('copies the views out once no more than half of the outputs they share are held', () => {
    const first = plan([2, 2, 2, 2], [0, 0, 0, 0]);
    const presents = presentsOf(first);
    const handles = rowsOfPresents(presents, first, shape).map((row) => new BackendCacheHandle(owner, row, 2));
    const fork = handles[3]!.fork();
    handles[3]!.release();
    handles[0]!.release();
    // Rows 1, 2 and 3 (through the fork) are still held: three of four, still views.
    expect((fork as BackendCacheHandle<RowKeyValues>).data().keys[0]!.buffer).toBe(presents.keys[0]!.buffer);
    handles[1]!.release();
    for (const handle of [handles[2]!, fork as BackendCacheHandle<RowKeyValues>]) expect(handle.data().keys[0]!.buffer).not.toBe(presents.keys[0]!.buffer);
    expect((fork as BackendCacheHandle<RowKeyValues>).data().values[1]).toEqual(expectedRow(1, 1, 3, [0, 1]));
    expect(handles[2]!.data().keys[0]).toEqual(expectedRow(0, 0, 2, [0, 1]));
  });

  it('shares the tensors with forks (O(1)) and refuses a released handle', () => {
    const first = plan([2], [0]);
    const [row] = rowsOfPresents(presentsOf(first), first, shape);
    const handle = new BackendCacheHandle(owner, row!, 2);
    const fork = handle.fork() as BackendCacheHandle<RowKeyValues>;
    expect(fork.data()).toBe(handle.data());
    handle.release();
    handle.release();
    expect(handle.released).toBe(true);
    expect(() => handle.data()).toThrow(BackendContractError);
    expect(() => handle.fork()).toThrow(/cannot fork a released cache handle/);
    expect(fork.data().keys[0]).toEqual(expectedRow(0, 0, 0, [0, 1]));
    fork.release();
    expect(() => fork.data()).toThrow(BackendContractError);
  });
});
