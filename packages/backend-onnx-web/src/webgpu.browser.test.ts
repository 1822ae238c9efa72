import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder } from '@reward-lens/spec';
import { createByteBpeTokenizer, ProcessRM } from '@reward-lens/core';
import { conformancePairs, expectClose, toleranceFor } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { describe, expect, it } from 'vitest';
import { createOnnxWebBackend } from './index.js';

const model = createRandomDecoder({ seed: 5 });
const graph = exportDecoderToOnnx(model, { withPast: true, hiddenStates: true });

describe('onnx-web in Chromium: the WebGPU execution provider (SwiftShader)', () => {
  it('runs onnxruntime-web/webgpu, its wasm served from an explicit wasmPaths, with parity against backend-tiny', async () => {
    // Where this package's dev server serves onnxruntime-web's dist folder (a web app serves its copy of the files).
    const wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
    const backend = await createOnnxWebBackend(graph, { decoder: model, executionProviders: ['webgpu', 'wasm'], numThreads: 1, wasmPaths });
    const reference = createTinyBackend(model);
    try {
      expect(backend.info.description).toMatch(/, onnxruntime-web webgpu execution provider$/);
      const tokenizer = createByteBpeTokenizer();
      const ours = await ProcessRM.fromBackend(backend, tokenizer).stepScores(conformancePairs);
      const theirs = await ProcessRM.fromBackend(reference, tokenizer).stepScores(conformancePairs);
      ours.value.curves.forEach((curve, index) => expectClose(curve, theirs.value.curves[index]!, toleranceFor(backend.precision), `pair ${index}`));
      // Steps scored one by one on the cached prefix match backend-tiny scoring those steps whole.
      const [problem, solution] = conformancePairs[0]!;
      const steps = solution.split('\n').slice(0, 2);
      const first = await ProcessRM.fromBackend(backend, tokenizer).prefix(problem);
      const second = await first.extend(steps[0]!);
      const third = await second.extend(steps[1]!);
      const whole = await ProcessRM.fromBackend(reference, tokenizer).stepScores([{ problem, steps }]);
      expectClose(third.stepScores, whole.value.curves[0]!, toleranceFor(backend.precision), 'steps on the cached prefix');
      for (const prefix of [first, second, third]) prefix.release();
    } finally {
      await backend.dispose();
      await reference.dispose();
    }
  });
});
