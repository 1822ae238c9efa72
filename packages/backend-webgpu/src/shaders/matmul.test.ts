import { beforeAll, describe, expect, it } from 'vitest';
import { createKernelHarness, seededValues, type KernelHarness } from '../../test/support/kernel-harness.js';
import { webGpuUnavailableReason } from '../../test/support/software-gpu.js';
import { MATMUL_TILE } from './matmul.js';

/** `x·wᵀ` in float64, the reference every GPU result is checked against. */
function referenceMatmul(x: Float32Array, w: Float32Array, rows: number, columns: number, depth: number): Float64Array {
  const out = new Float64Array(rows * columns);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      let sum = 0;
      for (let k = 0; k < depth; k++) sum += x[row * depth + k]! * w[column * depth + k]!;
      out[row * columns + column] = sum;
    }
  }
  return out;
}

function expectNear(actual: Float32Array, expected: ArrayLike<number>, label: string): void {
  expect(actual.length, label).toBe(expected.length);
  for (let index = 0; index < expected.length; index++) {
    const tolerance = 1e-5 * Math.max(1, Math.abs(expected[index]!));
    if (!(Math.abs(actual[index]! - expected[index]!) <= tolerance)) {
      expect.fail(`${label}: element ${index} is ${actual[index]}, expected ${expected[index]}`);
    }
  }
}

// Shapes that are not multiples of the tile (32) or of the tile depth (16/32), and the edges.
const shapes: [rows: number, columns: number, depth: number][] = [
  [1, 1, 1],
  [3, 5, 7],
  [37, 45, 70],
  [MATMUL_TILE + 1, MATMUL_TILE - 1, 33],
  [70, 129, 48],
];

describe.skipIf((await webGpuUnavailableReason()) !== null)('tiled matmul shader (SwiftShader)', () => {
  let harness: KernelHarness;
  beforeAll(async () => {
    harness = await createKernelHarness();
  });

  for (const [rows, columns, depth] of shapes) {
    it(`x[${rows}×${depth}]·w[${columns}×${depth}]ᵀ + bias, stored and accumulated`, async () => {
      const x = seededValues(rows * depth, rows * 7 + depth);
      const w = seededValues(columns * depth, columns * 13 + depth);
      const bias = seededValues(columns, 99);
      const start = seededValues(rows * columns, 5);
      const product = referenceMatmul(x, w, rows, columns, depth);
      const { kernels, upload, run } = harness;

      const stored = upload(new Float32Array(rows * columns));
      const storedResult = await run(
        (recorder) => kernels.matmul(recorder, 'linear', { x: upload(x), w: upload(w), out: stored, bias: upload(bias), rows, columns, depth }),
        stored,
        rows * columns,
      );
      expectNear(
        storedResult,
        product.map((value, index) => value + bias[index % columns]!),
        'stored with bias',
      );

      const rectified = upload(new Float32Array(rows * columns));
      const rectifiedResult = await run(
        (recorder) => kernels.matmul(recorder, 'linear', { x: upload(x), w: upload(w), out: rectified, bias: upload(bias), relu: true, rows, columns, depth }),
        rectified,
        rows * columns,
      );
      expectNear(
        rectifiedResult,
        product.map((value, index) => Math.max(0, value + bias[index % columns]!)),
        'with bias and ReLU (a head hidden layer)',
      );

      const accumulated = upload(start);
      const accumulatedResult = await run(
        (recorder) => kernels.matmul(recorder, 'linear', { x: upload(x), w: upload(w), out: accumulated, accumulate: true, rows, columns, depth }),
        accumulated,
        rows * columns,
      );
      expectNear(
        accumulatedResult,
        product.map((value, index) => value + start[index]!),
        'accumulated',
      );
    });
  }

  it('SwiGLU multiplies by the gate and up projections at once, on an odd shape', async () => {
    const [rows, columns, depth] = [21, 38, 27];
    const x = seededValues(rows * depth, 1);
    const gate = seededValues(columns * depth, 2);
    const up = seededValues(columns * depth, 3);
    const gateSums = referenceMatmul(x, gate, rows, columns, depth);
    const upSums = referenceMatmul(x, up, rows, columns, depth);
    const { kernels, upload, run } = harness;
    const out = upload(new Float32Array(rows * columns));
    const result = await run(
      (recorder) => kernels.matmul(recorder, 'swiglu', { x: upload(x), w: upload(gate), up: upload(up), out, rows, columns, depth }),
      out,
      rows * columns,
    );
    expectNear(
      result,
      gateSums.map((g, index) => (g / (1 + Math.exp(-g))) * upSums[index]!),
      'swiglu',
    );
  });

  it('gives a row the same bits whatever rows surround it and wherever it is written', async () => {
    const [rows, columns, depth] = [40, 33, 50];
    const x = seededValues(rows * depth, 11);
    const w = seededValues(columns * depth, 12);
    const { kernels, upload, run } = harness;
    const all = upload(new Float32Array(rows * columns));
    const full = await run(
      (recorder) => kernels.matmul(recorder, 'linear', { x: upload(x), w: upload(w), out: all, rows, columns, depth }),
      all,
      rows * columns,
    );
    // Row 35 alone, read from an offset and written at an offset: a different tile, a different lane.
    const one = upload(new Float32Array(3 + columns));
    const single = await run(
      (recorder) => kernels.matmul(recorder, 'linear', { x: upload(x), w: upload(w), out: one, rows: 1, columns, depth, xOffset: 35 * depth, outOffset: 3 }),
      one,
      3 + columns,
    );
    expect(Array.from(single.subarray(3))).toEqual(Array.from(full.subarray(35 * columns, 36 * columns)));
  });
});
