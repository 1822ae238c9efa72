import { generate } from '@reward-lens/core';
import { createOnnxNodeBackend } from '@reward-lens/backend-onnx-node';
import { createWebGpuBackend, getNodeGpu } from '@reward-lens/backend-webgpu';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { describe, expect, it } from 'vitest';
import { loadStories260k } from './stories260k.js';

describe("stories260K's greedy 200 tokens from BOS are identical on every backend", () => {
  const { model, tokenizer, greedy200 } = loadStories260k();

  it('onnx-node (the exported graph, one intra-op thread)', async () => {
    const backend = await createOnnxNodeBackend(exportDecoderToOnnx(model, { withPast: true }), { intraOpThreads: 1, config: model.config });
    try {
      const [result] = await generate(backend, tokenizer, [''], { maxTokens: 200, temperature: 0 });
      expect(result!.fullText).toBe(greedy200);
    } finally {
      await backend.dispose();
    }
  });

  it('webgpu (SwiftShader: the software adapter, asked for explicitly)', async () => {
    const backend = await createWebGpuBackend(model, { gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true });
    try {
      const [result] = await generate(backend, tokenizer, [''], { maxTokens: 200, temperature: 0 });
      expect(result!.fullText).toBe(greedy200);
    } finally {
      await backend.dispose();
    }
  });
});
