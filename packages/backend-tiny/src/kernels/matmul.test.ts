import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '@reward-lens/spec';
import { matmulTransposed } from './matmul.js';

function randomArray(length: number, seed: number): Float32Array {
  const random = createSeededRandom(seed);
  return Float32Array.from({ length }, () => random() * 2 - 1);
}

describe('matmulTransposed', () => {
  // Sizes off the 4×4 tile and the 32-row block on every side.
  it.each([
    [1, 1, 1],
    [3, 5, 7],
    [4, 8, 4],
    [37, 19, 10],
    [70, 33, 9],
  ])('matches a float64 reference for %i rows, in %i, out %i, with and without bias', (rows, inDim, outDim) => {
    const x = randomArray(rows * inDim, 1);
    const w = randomArray(outDim * inDim, 2);
    const bias = randomArray(outDim, 3);
    for (const withBias of [false, true]) {
      const out = new Float32Array(rows * outDim);
      matmulTransposed(out, x, w, rows, inDim, outDim, withBias ? bias : undefined);
      for (let row = 0; row < rows; row++) {
        for (let column = 0; column < outDim; column++) {
          let expected = withBias ? bias[column]! : 0;
          for (let k = 0; k < inDim; k++) expected += x[row * inDim + k]! * w[column * inDim + k]!;
          expect(out[row * outDim + column]).toBeCloseTo(expected, 5);
        }
      }
    }
  });

  it('gives a row the same bits whatever rows surround it', () => {
    const inDim = 23;
    const outDim = 11;
    const x = randomArray(41 * inDim, 4);
    const w = randomArray(outDim * inDim, 5);
    const all = new Float32Array(41 * outDim);
    matmulTransposed(all, x, w, 41, inDim, outDim);
    for (const row of [0, 3, 33, 40]) {
      const single = new Float32Array(outDim);
      matmulTransposed(single, x.subarray(row * inDim, (row + 1) * inDim), w, 1, inDim, outDim);
      expect(single).toEqual(all.subarray(row * outDim, (row + 1) * outDim));
    }
  });
});
