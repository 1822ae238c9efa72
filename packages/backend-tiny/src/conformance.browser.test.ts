import '@reward-lens/backend-tiny/register';
import { createRandomDecoder } from '@reward-lens/spec';
import { ProcessRM, createByteBpeTokenizer } from '@reward-lens/core';
import { runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { createTinyBackend, createTinyBackendAsync } from './create-tiny-backend.js';

// On a page's main thread, created asynchronously: the WebAssembly SIMD kernels must run, and
// match the float64 oracle (the kit's default reference).
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'backend-tiny in Chromium (main thread, created asynchronously)',
  createBackend: async (model) => {
    const backend = await createTinyBackendAsync(model);
    expect(backend.info.description).toMatch(/ kernels=wasm-simd$/);
    return backend;
  },
});

describe('ProcessRM.fromTiny on a page', () => {
  it("runs the SIMD kernels and gives the scalar kernels' step scores", async () => {
    const problem = 'Compute (2+2)*3-5.';
    const solution = 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.';
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    expect(prm.backend.info.description).toMatch(/ kernels=wasm-simd$/);
    const scalar = ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 0 }), { kernels: 'scalar' }), createByteBpeTokenizer());
    const steps = (await prm.stepScores([[problem, solution]])).value;
    const expected = (await scalar.stepScores([[problem, solution]])).value;
    expect(steps.stepCounts).toEqual([3]);
    expect(steps.curves[0]!.length).toBe(3);
    steps.curves[0]!.forEach((score, index) => expect(Math.abs(score - expected.curves[0]![index]!)).toBeLessThan(1e-4));
  });
});
