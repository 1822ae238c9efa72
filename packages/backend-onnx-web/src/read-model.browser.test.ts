import { createRandomDecoder, registerBackend, resolveBackend } from '@reward-lens/spec';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { describe, expect, it } from 'vitest';
import { createOnnxWebBackend, onnxWebBackendRegistration } from './index.js';

const model = createRandomDecoder({ seed: 9 });

describe('onnx-web in Chromium: models by URL and through the registry', () => {
  it('fetches a model by URL (no config.json beside it: the options give the config)', async () => {
    const url = URL.createObjectURL(new Blob([exportDecoderToOnnx(model, { withPast: false }) as Uint8Array<ArrayBuffer>]));
    const backend = await createOnnxWebBackend(url, { config: model.config, numThreads: 1 });
    expect(backend.info).toMatchObject({ vocabSize: 512, description: expect.stringMatching(/, onnxruntime-web wasm execution provider$/) });
    await backend.dispose();
    URL.revokeObjectURL(url);
    await expect(createOnnxWebBackend(url)).rejects.toMatchObject({ code: 'MODEL_LOAD', message: expect.stringContaining(`${url}: cannot read it`) });
  });

  it('runs a decoder source, exported in memory, as "auto" when it is the only backend registered', async () => {
    const unregister = registerBackend(onnxWebBackendRegistration);
    try {
      const { backend, notes } = await resolveBackend(
        'auto',
        { kind: 'decoder', model, description: 'seeded weights' },
        { settings: { 'onnx-web': { numThreads: 1 } } },
      );
      expect(notes[0]).toBe('backend "onnx-web" ran seeded weights');
      expect(backend.supportsCache).toBe(true);
      await backend.dispose();
    } finally {
      unregister();
    }
  });
});
