import type { ForwardRequestV1 } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { mergeRowGroups, planRowGroups, rowGroupRequest } from './row-groups.js';

/** Rows of `lengths` real tokens, right-padded, or left-padded where `left` says so; a value read at every real token. */
function request(lengths: number[], left: boolean[] = []): ForwardRequestV1 {
  const sequenceLength = Math.max(...lengths);
  const inputIds = new Int32Array(lengths.length * sequenceLength);
  const attentionMask = new Uint8Array(lengths.length * sequenceLength);
  const positions = lengths.map((length, row) => {
    const start = left[row] ? sequenceLength - length : 0;
    for (let column = start; column < start + length; column++) {
      inputIds[row * sequenceLength + column] = 100 * row + column;
      attentionMask[row * sequenceLength + column] = 1;
    }
    return Array.from({ length }, (_, index) => start + index);
  });
  return { batchSize: lengths.length, sequenceLength, inputIds, attentionMask, reads: [{ kind: 'head', head: 'value', positions }] };
}

const cost = { heads: 4, outputWidthPerToken: 2 };
/** The estimate for `rows` rows of `length` tokens, as planRowGroups computes it. */
const bytes = (rows: number, length: number) => rows * length * (3 * cost.heads * length + cost.outputWidthPerToken) * 4;

describe('planRowGroups: batches split by their estimated memory', () => {
  it('keeps a batch that fits in one group, in order', () => {
    expect(planRowGroups(request([10, 3, 7]), cost, bytes(3, 10))).toEqual([[0, 1, 2]]);
  });

  it('groups the shortest rows together, each group within the limit, every row once; a row over the limit alone', () => {
    const lengths = [100, 5, 60, 6, 400, 7, 61];
    const limit = bytes(2, 100);
    const groups = planRowGroups(request(lengths), cost, limit);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, row) => row));
    expect(groups).toContainEqual([4]);
    expect(groups[0]).toEqual([1, 3, 5, 2, 6]);
    for (const group of groups.filter((rows) => rows.length > 1))
      expect(bytes(group.length, Math.max(...group.map((row) => lengths[row]!)))).toBeLessThanOrEqual(limit);
  });
});

describe('rowGroupRequest and mergeRowGroups', () => {
  it('crops the columns to the group, shifts the read positions with them, and puts results back in row order', () => {
    const whole = request([3, 8, 2], [true, false, true]);
    const group = rowGroupRequest(whole, [2, 0]);
    // Both rows are left-padded: only the last 3 columns hold real tokens.
    expect(group.sequenceLength).toBe(3);
    expect(Array.from(group.attentionMask)).toEqual([0, 1, 1, 1, 1, 1]);
    expect(Array.from(group.inputIds)).toEqual([0, 206, 207, 5, 6, 7]);
    expect(group.reads[0]!.positions).toEqual([
      [1, 2],
      [0, 1, 2],
    ]);
    const results = [[2, 0], [1]].map((rows) => ({
      reads: [{ width: 1, values: rows.map((row) => Float32Array.of(row)) }],
    }));
    expect(mergeRowGroups(3, [[2, 0], [1]], results).reads[0]!.values.map((values) => values[0])).toEqual([0, 1, 2]);
  });
});
