import { median, seconds } from '@reward-lens/bench-harness';
import { quantizeTensor } from '@reward-lens/spec/internal';
import { createKernels } from '../src/kernels/kernel-choice.js';
import type { WasmSimdKernelSet } from '../src/kernels/wasm/wasm-simd-kernels.js';

/**
 * The q8 and q4 products on integers (`i32x4.dot_i16x8_s`, activations quantized per row,
 * included; q4's nibbles unpacked and its blocks scaled) against the float32 SIMD kernel, on Qwen2-0.5B's projection shapes with 256 rows, each figure
 * the median over 7 rounds that alternate the two, and the ratio the median of each round's.
 * Weights are resident, as the backend holds them; both include copying `x` in and `out` back.
 */
export function compareInt8Matmul(): void {
  const kernels = createKernels('wasm-simd', []).kernels as WasmSimdKernelSet;
  console.log('\nq8 and q4 on integers vs fp32, out[256, out] = x[256, in] · W[out, in]ᵀ, GFLOP/s (median of 7 alternating rounds):');
  for (const [inDim, outDim, label] of [
    [896, 896, 'q/o projection'],
    [896, 4864, 'gate/up projection'],
    [4864, 896, 'down projection'],
  ] as const) {
    const rows = 256;
    const x = Float32Array.from({ length: rows * inDim }, (_, index) => Math.sin(index));
    const w = Float32Array.from({ length: outDim * inDim }, (_, index) => Math.cos(index * 0.618));
    const q8 = quantizeTensor(w, 'q8', outDim, inDim);
    const q4 = quantizeTensor(w, 'q4', outDim, inDim);
    kernels.prepareWeights!(w);
    kernels.prepareQuantized(q8);
    kernels.prepareQuantized(q4);
    const out = new Float32Array(rows * outDim);
    const flops = 2 * rows * inDim * outDim;
    const repeats = 3;
    const runs = [
      () => kernels.matmulTransposed(out, x, w, rows, inDim, outDim),
      () => kernels.matmulQuantized(out, x, q8, rows, inDim, outDim),
      () => kernels.matmulQuantized(out, x, q4, rows, inDim, outDim),
    ];
    const time = (run: () => void) => seconds(() => Array.from({ length: repeats }, run));
    // Past WebAssembly's baseline tier: V8 swaps in optimized code after some work, in the background.
    for (const run of runs) time(run);
    const rates = runs.map(() => [] as number[]);
    const ratios = [[] as number[], [] as number[]];
    for (let round = 0; round < 7; round++) {
      const [fp32, int8, int4] = runs.map((run, index) => {
        const rate = (flops * repeats) / time(run) / 1e9;
        rates[index]!.push(rate);
        return rate;
      }) as [number, number, number];
      ratios[0]!.push(int8 / fp32);
      ratios[1]!.push(int4 / fp32);
    }
    const [fp32, int8, int4] = rates.map(median) as [number, number, number];
    const [q8Ratio, q4Ratio] = ratios.map((each) => median(each).toFixed(2));
    console.log(
      `  ${label.padEnd(20)} [${rows}×${inDim}]·[${outDim}×${inDim}]ᵀ  fp32 ${fp32.toFixed(1).padStart(5)}  q8 ${int8.toFixed(1).padStart(5)} (${q8Ratio}×)  q4 ${int4.toFixed(1).padStart(5)} (${q4Ratio}×)`,
    );
  }
}
