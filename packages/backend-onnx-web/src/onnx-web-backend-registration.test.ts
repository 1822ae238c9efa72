import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder, registerBackend, resolveBackend } from '@reward-lens/core/internal';
import { writeOnnxModelFolder } from '@reward-lens/onnx-export/node';
import { afterAll, describe, expect, it } from 'vitest';
import { onnxWebBackendRegistration } from './index.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-web-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const model = createRandomDecoder({ seed: 41 });

describe('onnxWebBackendRegistration in Node', () => {
  it('runs decoder sources (exported in memory) and ONNX files with their config.json, on wasm', async () => {
    const unregister = registerBackend(onnxWebBackendRegistration);
    try {
      // WebGPU is asked for first: in Node onnxruntime-web has no WebGPU, and the description says so.
      const settings = { 'onnx-web': { numThreads: 1, executionProviders: ['webgpu', 'wasm'] } };
      const fromDecoder = await resolveBackend('onnx-web', { kind: 'decoder', model, description: 'seeded weights' }, { settings });
      expect(fromDecoder.backend.info.description).toMatch(
        /exported to ONNX in memory from decoder weights, onnxruntime-web wasm execution provider, skipped webgpu: onnxruntime-web's WebGPU build runs only in browsers$/,
      );
      expect(fromDecoder.backend.supportsCache).toBe(true);
      await fromDecoder.backend.dispose();

      const folder = join(root, 'folder');
      await writeOnnxModelFolder(folder, { model, onnx: { withPast: false } });
      // The hub layout: config.json above onnx/.
      const path = join(folder, 'onnx', 'model.onnx');
      const fromFile = await resolveBackend('onnx-web', { kind: 'onnx', path, description: path }, { settings: { 'onnx-web': { numThreads: 1 } } });
      expect(fromFile.backend.info).toMatchObject({
        vocabSize: 512,
        maxPositions: 1024,
        description: expect.stringMatching(/, onnxruntime-web wasm execution provider$/),
      });
      expect(fromFile.backend.info.heads.map((head) => head.name)).toEqual(['value', 'classifier', 'lm']);
      expect(fromFile.backend.supportsCache).toBe(false);
      await fromFile.backend.dispose();
    } finally {
      unregister();
    }
  });

  it('reports missing and broken files as model errors naming them', async () => {
    const unregister = registerBackend(onnxWebBackendRegistration);
    try {
      const absent = join(root, 'absent.onnx');
      await expect(resolveBackend('onnx-web', { kind: 'onnx', path: absent, description: absent })).rejects.toMatchObject({
        code: 'MODEL_LOAD',
        message: expect.stringMatching(new RegExp(`^${absent}: cannot read it`)),
      });
      const broken = join(root, 'broken.onnx');
      await writeFile(broken, 'not onnx');
      await expect(resolveBackend('onnx-web', { kind: 'onnx', path: broken, description: broken })).rejects.toMatchObject({
        code: 'MODEL_LOAD',
        message: expect.stringMatching(new RegExp(`^${broken}: onnxruntime cannot load it`)),
      });
    } finally {
      unregister();
    }
  });
});
