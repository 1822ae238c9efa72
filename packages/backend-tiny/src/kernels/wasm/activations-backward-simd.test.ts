import { describe, expect, it } from 'vitest';
import { createWasmSimdKernels } from './wasm-simd-kernels.js';

describe('wasm-simd gatedSiluBackward', () => {
  it('matches the float64 derivative of silu(g)·u, vector lanes and scalar tail alike', () => {
    const kernels = createWasmSimdKernels();
    const count = 23;
    const gate = Float32Array.from({ length: count }, (_, index) => (index - 11) * 0.9);
    const up = Float32Array.from({ length: count }, (_, index) => Math.cos(index));
    const dh = Float32Array.from({ length: count }, (_, index) => Math.sin(index + 1));
    const [dGate, dUp] = [new Float32Array(count), new Float32Array(count)];
    kernels.gatedSiluBackward!(dGate, dUp, dh, gate, up, count);
    for (let index = 0; index < count; index++) {
      const [g, u, upstream] = [gate[index]!, up[index]!, dh[index]!];
      const s = 1 / (1 + Math.exp(-g));
      expect(dUp[index]).toBeCloseTo(upstream * g * s, 5);
      expect(dGate[index]).toBeCloseTo(upstream * u * (s + g * s * (1 - s)), 5);
    }
  });
});
