import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessRM, createByteBpeTokenizer } from '@reward-lens/core';
import { createRandomDecoder, registerBackend, resolveBackend } from '@reward-lens/spec';
import { writeOnnxModelFolder } from '@reward-lens/onnx-export/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { onnxWebBackendRegistration } from './index.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-web-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const model = createRandomDecoder({ seed: 41 });

describe('onnxWebBackendRegistration in Node', () => {
  // Registered for the tests of this block; the remover registerBackend returns is beforeAll's teardown.
  beforeAll(() => registerBackend(onnxWebBackendRegistration));

  it('runs decoder sources (exported in memory) and ONNX files with their config.json, on wasm', async () => {
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
  });

  it('runs a graph held in memory (ProcessRM.fromFiles) with the text of its config.json, as from disk; broken bytes are named by their path', async () => {
    const folder = join(root, 'in-memory');
    await writeOnnxModelFolder(folder, { model, onnx: { withPast: true } });
    const path = join(folder, 'onnx', 'model.onnx');
    const settings = { 'onnx-web': { numThreads: 1 } };
    const configJson = await readFile(join(folder, 'config.json'), 'utf8');
    const bytes = new Uint8Array(await readFile(path));
    const onDisk = await resolveBackend('onnx-web', { kind: 'onnx', path, description: path }, { settings });
    const inMemory = await resolveBackend('onnx-web', { kind: 'onnx', path: 'picked/onnx/model.onnx', bytes, configJson, description: 'picked' }, { settings });
    expect(inMemory.backend.info).toEqual(onDisk.backend.info);
    expect(inMemory.backend.supportsCache).toBe(true);
    const pair = ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'] as const;
    const [fromDisk, fromMemory] = await Promise.all(
      [onDisk, inMemory].map((resolved) => ProcessRM.fromBackend(resolved.backend, createByteBpeTokenizer()).stepScores([pair])),
    );
    expect(Array.from(fromMemory!.value.curves[0]!)).toEqual(Array.from(fromDisk!.value.curves[0]!));
    await Promise.all([onDisk.backend.dispose(), inMemory.backend.dispose()]);

    await expect(
      resolveBackend('onnx-web', { kind: 'onnx', path: 'picked/model.onnx', bytes: bytes.subarray(0, 1000), configJson, description: 'picked' }, { settings }),
    ).rejects.toMatchObject({ code: 'MODEL_LOAD', message: expect.stringMatching(/^picked\/model\.onnx: onnxruntime cannot load it/) });
  });

  it('reports missing and broken files as model errors naming them', async () => {
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
  });

  it.each(['q8', 'q4'] as const)('holds %s: decoder weights exported with MatMulNBits run on wasm, as backend-tiny runs them at that dtype', async (dtype) => {
    // backend-tiny's scalar kernels widen the weights to float32, as MatMulNBits (accuracy_level 1)
    // does; its SIMD q8 kernel multiplies on integers over activations rounded to 16 bits instead.
    const tiny = createTinyBackend(model, { dtype, threads: 1, kernels: 'scalar' });
    try {
      const resolved = await resolveBackend(
        'onnx-web',
        { kind: 'decoder', model, description: 'seeded weights' },
        { dtype, settings: { 'onnx-web': { numThreads: 1 } } },
      );
      const web = resolved.backend;
      expect(web.info.weightDtype).toBe(dtype);
      expect(resolved.notes.join('\n')).toContain(`runs a graph with ${dtype} projection weights (onnxruntime's MatMulNBits)`);
      const ids = [5, 6, 7, 8, 9, 10, 11];
      const request = {
        batchSize: 1,
        sequenceLength: ids.length,
        inputIds: Int32Array.from(ids),
        attentionMask: new Uint8Array(ids.length).fill(1),
        reads: [{ kind: 'head' as const, head: 'value', positions: [ids.map((_, index) => index)] }],
      };
      const [actual, expected] = [(await web.doForward(request)).reads[0]!.values[0]!, (await tiny.doForward(request)).reads[0]!.values[0]!];
      actual.forEach((value, index) => expect(Math.abs(value - expected[index]!)).toBeLessThan(1e-5));
      await web.dispose();
      await expect(resolveBackend('onnx-web', { kind: 'decoder', model, description: 'seeded weights' }, { dtype: 'bf16' })).rejects.toThrow(
        /it does not hold weights as bf16 \(it holds fp32, fp16, q8, q4\)/,
      );
    } finally {
      await tiny.dispose();
    }
  });
});
