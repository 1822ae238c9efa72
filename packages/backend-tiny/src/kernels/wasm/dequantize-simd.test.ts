import { createSeededRandom } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import type { QuantizedFormatV1 } from '@reward-lens/spec';
import { dequantizeRows, quantizeTensor } from '@reward-lens/spec/internal';
import { expectRowsAlone } from '../../../test/support/rows-alone.js';
import { scalarKernels } from '../kernel-set.js';
import { linear } from '../linear.js';
import { compiledKernelModule, type KernelModuleExports } from './kernel-module.js';
import { createWasmSimdKernels } from './wasm-simd-kernels.js';

function randomArray(length: number, seed: number, scale = 1): Float32Array {
  const random = createSeededRandom(seed);
  return Float32Array.from({ length }, () => (random() * 2 - 1) * scale);
}

const bitsOf = (values: Float32Array) => [...new Uint32Array(values.buffer, values.byteOffset, values.length)];

function dequantized(
  format: QuantizedFormatV1,
  w: Float32Array,
  outDim: number,
  inDim: number,
): { matrix: ReturnType<typeof quantizeTensor>; floats: Float32Array } {
  const matrix = quantizeTensor(w, format, outDim, inDim);
  const floats = new Float32Array(outDim * inDim);
  dequantizeRows(matrix, 0, outDim, floats);
  return { matrix, floats };
}

describe('products over quantized weights', () => {
  // Shapes with a q8 tail (inDim % 16), several dequantized blocks (outDim above the block), and one row.
  const shapes: [format: QuantizedFormatV1, rows: number, inDim: number, outDim: number][] = [
    ['q8', 5, 37, 11],
    ['q8', 1, 64, 9],
    ['q8', 7, 300, 1100],
    ['q4', 5, 64, 13],
    ['q4', 3, 320, 900],
    ['bf16', 5, 37, 11],
    ['bf16', 4, 300, 1100],
    ['fp16', 3, 45, 19],
    ['fp16', 2, 256, 700],
  ];

  for (const [format, rows, inDim, outDim] of shapes) {
    // q8 products run on integers instead, not over widened weights: `int8-matmul-simd.test.ts`.
    if (format !== 'q8')
      it(`${format} ${rows}×${inDim}·(${outDim}×${inDim})ᵀ: the SIMD kernels give the bits of their float32 product over the TypeScript dequantization`, () => {
        const kernels = createWasmSimdKernels();
        const x = randomArray(rows * inDim, 1);
        const bias = randomArray(outDim, 3);
        const { matrix, floats } = dequantized(format, randomArray(outDim * inDim, 2, 0.2), outDim, inDim);
        const expected = new Float32Array(rows * outDim);
        kernels.matmulTransposed(expected, x, floats, rows, inDim, outDim, bias);
        const copied = new Float32Array(rows * outDim);
        kernels.matmulQuantized(copied, x, matrix, rows, inDim, outDim, bias);
        expect(bitsOf(copied)).toEqual(bitsOf(expected));
        // Resident (uploaded once), as a backend holds it: the same bits.
        kernels.prepareQuantized(matrix);
        const resident = new Float32Array(rows * outDim);
        kernels.matmulQuantized(resident, x, matrix, rows, inDim, outDim, bias);
        expect(bitsOf(resident)).toEqual(bitsOf(expected));
      });

    it(`${format} ${rows}×${inDim}·(${outDim}×${inDim})ᵀ: the scalar kernels' blocks give their product over the whole dequantized matrix`, () => {
      const x = randomArray(rows * inDim, 4);
      const { matrix, floats } = dequantized(format, randomArray(outDim * inDim, 5), outDim, inDim);
      const expected = new Float32Array(rows * outDim);
      scalarKernels.matmulTransposed(expected, x, floats, rows, inDim, outDim);
      const actual = new Float32Array(rows * outDim);
      linear(scalarKernels, actual, x, matrix, rows, inDim, outDim);
      expect(bitsOf(actual)).toEqual(bitsOf(expected));
    });
  }

  it('widen every bf16 and fp16 pattern to the bits the TypeScript dequantization gives (subnormals, infinities, NaN payloads)', () => {
    const compiled = compiledKernelModule();
    if (!('module' in compiled)) throw new Error(compiled.unavailable);
    const memory = new WebAssembly.Memory({ initial: 8 });
    const kernels = new WebAssembly.Instance(compiled.module, { env: { memory } }).exports as unknown as KernelModuleExports;
    for (const format of ['bf16', 'fp16'] as const) {
      const matrix = quantizeTensor(new Float32Array(65536), format, 256, 256);
      const patterns = matrix.data as Uint16Array;
      for (let bits = 0; bits < 65536; bits++) patterns[bits] = bits;
      const expected = new Float32Array(65536);
      dequantizeRows(matrix, 0, 256, expected);
      // The patterns at 16, the floats after them; 65,533 of them so that the scalar tail runs too.
      new Uint16Array(memory.buffer, 16, 65536).set(patterns);
      const out = 16 + 2 * 65536;
      const count = 65533;
      kernels[format === 'bf16' ? 'dequantizeBf16' : 'dequantizeFp16'](out, 16, count);
      expect([...new Uint32Array(memory.buffer, out, count)]).toEqual([...new Uint32Array(expected.buffer, 0, count)]);
    }
  });

  it('a row gives the same bits alone as among others', () => {
    const kernels = createWasmSimdKernels();
    const [rows, inDim, outDim] = [6, 96, 70];
    const x = randomArray(rows * inDim, 7);
    const { matrix } = dequantized('q4', randomArray(outDim * inDim, 8), outDim, inDim);
    expectRowsAlone(kernels, x, matrix, rows);
  });
});
