import { median, seconds } from '@reward-lens/bench-harness';
import { createSeededRandom } from '@reward-lens/spec';
import { dequantizeRows, quantizeTensor } from '@reward-lens/spec/internal';
import { addMatmulQ8 } from '../src/kernels/wasm/int8-matmul-simd.js';
import type { KernelModuleExports } from '../src/kernels/wasm/kernel-module.js';
import { WasmHeap } from '../src/kernels/wasm/wasm-heap.js';
import { int8MatmulInWasm } from '../src/kernels/wasm/wasm-int8-matmul.js';
import { WasmModuleBuilder } from '../src/kernels/wasm/wasm-module-builder.js';

/** Activations as a transformer's are after a norm: mostly small, a few channels 20× larger (seeded). */
function activations(rows: number, inDim: number): Float32Array {
  const random = createSeededRandom(5);
  return Float32Array.from({ length: rows * inDim }, (_, index) => (random() * 2 - 1) * (index % inDim < 4 ? 20 : 1));
}

/**
 * The integer product with activations quantized to 15 bits (what the backend runs), 12 bits and
 * 8 bits, each its own kernel module, timed in alternating rounds (median of each level's time over
 * 15-bit's in the same round), with the error against a float64 product over the same widened
 * weights (RMS of the error over RMS of the output, on 64 outputs of every row): what chose 15.
 */
export function compareActivationBits(): void {
  const levels = [32_767, 2047, 127] as const;
  console.log(
    "\nq8 product by activation range (held as i16 either way: ±32767 is 16 bits, ±2047 12, ±127 8), time / ±32767's time (median of 7 alternating rounds), error vs float64:",
  );
  for (const [rows, inDim, outDim] of [
    [256, 896, 4864],
    [256, 4864, 896],
  ] as const) {
    const x = activations(rows, inDim);
    const weights = Float32Array.from({ length: outDim * inDim }, (_, index) => Math.cos(index * 0.618));
    const w = quantizeTensor(weights, 'q8', outDim, inDim);
    const widened = new Float32Array(outDim * inDim);
    dequantizeRows(w, 0, outDim, widened);
    const out = new Float32Array(rows * outDim);
    const runs = levels.map((level) => {
      const builder = new WasmModuleBuilder().importMemory('env', 'memory', 1);
      addMatmulQ8(builder, level);
      const heap = new WasmHeap();
      const kernels = new WebAssembly.Instance(new WebAssembly.Module(builder.toBytes()), { env: { memory: heap.memory } })
        .exports as unknown as KernelModuleExports;
      heap.upload(w.bytes);
      const run = () => int8MatmulInWasm(heap, kernels, out, x, w, rows, inDim, outDim, undefined);
      run();
      return run;
    });
    const ratios = levels.map(() => [] as number[]);
    for (let round = 0; round < 7; round++) {
      const times = runs.map((run) =>
        seconds(() => {
          run();
          run();
        }),
      );
      times.forEach((time, index) => ratios[index]!.push(time / times[0]!));
    }
    const errors = runs.map((run) => {
      run();
      let squaredError = 0;
      let squaredValue = 0;
      for (let row = 0; row < rows; row++) {
        for (let column = 0; column < outDim; column += Math.ceil(outDim / 64)) {
          let expected = 0;
          for (let k = 0; k < inDim; k++) expected += x[row * inDim + k]! * widened[column * inDim + k]!;
          squaredError += (out[row * outDim + column]! - expected) ** 2;
          squaredValue += expected ** 2;
        }
      }
      return Math.sqrt(squaredError / squaredValue);
    });
    const cells = levels.map((level, index) => `±${level} ${median(ratios[index]!).toFixed(2)}× err ${errors[index]!.toExponential(1)}`);
    console.log(`  [${rows}×${inDim}]·[${outDim}×${inDim}]ᵀ  ${cells.join('  ')}`);
  }
}
