import { createOnnxNodeBackend } from '@reward-lens/backend-onnx-node';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createWebGpuBackend, getNodeGpu } from '@reward-lens/backend-webgpu';
import { ProcessRM, qwen25MathPrmRecipe, type BackendV1 } from '@reward-lens/core';
import { createReferenceBackend, expectClose } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { describe, expect, it } from 'vitest';
import { processBenchGsm8k } from './processbench.js';
import { qwenTokenizer } from './real-tokenizers.js';
import { recipeModel } from './recipe-model.js';

// Issue 8: on the same Qwen2.5-Math-PRM-shaped weights, backend-tiny applied the head's hidden
// layer (score.0 → ReLU → score.2) and onnx-node and webgpu dropped it, so `auto` (which prefers
// onnx-node) gave other step scores. Every backend must now give the float64 oracle's.
describe("Qwen2.5-Math-PRM's step scores are the float64 oracle's on every backend", () => {
  const item = processBenchGsm8k()[0]!;
  const input = { problem: item.problem, steps: item.steps };
  const tokenizer = qwenTokenizer();
  const { model } = recipeModel({ vocabSize: tokenizer.vocabSize, heads: qwen25MathPrmRecipe.heads, architecture: 'qwen2' });
  const stepScores = async (backend: BackendV1, layer?: number) => {
    const prm = ProcessRM.fromBackend(backend, tokenizer, { recipe: qwen25MathPrmRecipe });
    return (await prm.stepScores([input], layer === undefined ? {} : { layer })).value.curves[0]!;
  };
  const oracle = { final: stepScores(createReferenceBackend(model)), inner: stepScores(createReferenceBackend(model), 1) };

  const backends: [string, () => Promise<BackendV1>][] = [
    ['tiny', async () => createTinyBackend(model)],
    [
      'onnx-node (exported graph with hidden states; inner layers read in JavaScript)',
      () => createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: true, hiddenStates: true }), { decoder: model, intraOpThreads: 1 }),
    ],
    ['webgpu (SwiftShader)', async () => createWebGpuBackend(model, { gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true })],
  ];

  it.each(backends)('%s', async (_name, create) => {
    const expected = await oracle.final;
    expect(expected).toHaveLength(4);
    // Not all equal: the hidden layer shapes them (the head without it gives other values).
    expect(new Set(expected).size).toBeGreaterThan(1);
    const backend = await create();
    try {
      expectClose(await stepScores(backend), expected, 1e-4, 'step scores at the final layer');
      expectClose(await stepScores(backend, 1), await oracle.inner, 1e-4, 'step scores read at layer 1 (final norm, then the whole head)');
    } finally {
      await backend.dispose();
    }
  });
});
