import { createKernels } from '../src/kernels/kernel-choice.js';
import type { KernelSet } from '../src/kernels/kernel-set.js';
import { median, seconds } from '@reward-lens/bench-harness';

/**
 * Matmul GFLOP/s of the scalar and the WebAssembly SIMD kernels on the model's projection
 * shapes. Weights are prepared as the backend prepares them (resident in WebAssembly memory),
 * so the WebAssembly figures include copying `x` in and `out` back. Rounds alternate between
 * the two kernel sets, and each figure is the median of its rounds.
 */
export function compareMatmul(): void {
  const kernelSets = [createKernels('scalar', []).kernels, createKernels('wasm-simd', []).kernels] as const;
  console.log('\nmatmul out[rows, out] = x[rows, in] · W[out, in]ᵀ, GFLOP/s (median of 5 alternating rounds):');
  for (const [rows, inDim, outDim, label] of [
    [512, 256, 256, 'q/k/v/o projection'],
    [512, 256, 688, 'gate/up projection'],
    [512, 688, 256, 'down projection'],
  ] as const) {
    const x = Float32Array.from({ length: rows * inDim }, (_, index) => Math.sin(index));
    const w = Float32Array.from({ length: outDim * inDim }, (_, index) => Math.cos(index));
    const out = new Float32Array(rows * outDim);
    const flops = 2 * rows * inDim * outDim;
    const rates = kernelSets.map(() => [] as number[]);
    const run = (kernels: KernelSet, repeats: number) =>
      seconds(() => {
        for (let repeat = 0; repeat < repeats; repeat++) kernels.matmulTransposed(out, x, w, rows, inDim, outDim);
      });
    for (const kernels of kernelSets) {
      kernels.prepareWeights?.(w);
      // Past WebAssembly's baseline tier: V8 swaps in optimized code after some work, in the background.
      run(kernels, kernels === kernelSets[0] ? 2 : 20);
    }
    for (let round = 0; round < 5; round++) {
      kernelSets.forEach((kernels, index) => {
        // About 0.1 s a measurement for the scalar kernels, 0.1-0.2 s for WebAssembly.
        const repeats = index === 0 ? 2 : 20;
        rates[index]!.push((flops * repeats) / run(kernels, repeats) / 1e9);
      });
    }
    const [scalar, simd] = rates.map(median) as [number, number];
    console.log(
      `  ${label.padEnd(20)} [${rows}×${inDim}]·[${outDim}×${inDim}]ᵀ  scalar ${scalar.toFixed(2).padStart(6)}  wasm-simd ${simd.toFixed(2).padStart(6)}  ratio ${(simd / scalar).toFixed(1)}×`,
    );
  }
}
