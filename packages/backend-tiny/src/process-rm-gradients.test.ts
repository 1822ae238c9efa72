import { Capability, createRandomDecoder, type BackendV1 } from '@reward-lens/spec';
import { createByteBpeTokenizer, ProcessRM } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';

const pair = ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'] as const;

/** The tiny backend as a v1 backend that does not train: no GRADIENTS, no HVP, no methods for them. */
function forwardOnly(backend: BackendV1): BackendV1 {
  return {
    specificationVersion: 'v1',
    name: 'forward-only',
    capabilities: backend.capabilities & ~(Capability.GRADIENTS | Capability.HVP),
    precision: backend.precision,
    supportsCache: backend.supportsCache,
    info: backend.info,
    doForward: (request) => backend.doForward(request),
    dispose: () => backend.dispose(),
  };
}

describe('ProcessRM derivatives on backend-tiny', () => {
  it('refuses stepGradients and hvp on a backend without the capabilities', async () => {
    const prm = ProcessRM.fromBackend(forwardOnly(createTinyBackend(createRandomDecoder({ seed: 1 }))), createByteBpeTokenizer());
    await expect(prm.stepGradients([pair])).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY', capability: 'GRADIENTS', backend: 'forward-only' });
    await expect(prm.hvp(pair, { direction: {} })).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY', capability: 'HVP' });
    expect((await prm.stepScores([pair])).value.curves[0]).toHaveLength(3);
  });

  it('stops stepGradients at an aborted signal, with its reason: before any backward pass, and between passes', async () => {
    const backend = createTinyBackend(createRandomDecoder({ seed: 1 }));
    let backwardCalls = 0;
    const counted: BackendV1 = {
      ...forwardOnly(backend),
      capabilities: backend.capabilities,
      doBackward: (request) => {
        backwardCalls += 1;
        return backend.doBackward!(request);
      },
    };
    // One step per backward pass: the three steps take three passes.
    const prm = ProcessRM.fromBackend(counted, createByteBpeTokenizer(), { batchSize: 1 });
    const reason = new Error('stopped');
    await expect(prm.stepGradients([pair], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(backwardCalls).toBe(0);
    // Aborted during the first backward pass: no second one starts.
    const controller = new AbortController();
    const aborting: BackendV1 = {
      ...counted,
      doBackward: (request) => {
        backwardCalls += 1;
        controller.abort();
        return backend.doBackward!(request);
      },
    };
    const stopping = ProcessRM.fromBackend(aborting, createByteBpeTokenizer(), { batchSize: 1 });
    const error = await stopping.stepGradients([pair], { signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe('AbortError');
    expect(backwardCalls).toBe(1);
    await prm.dispose();
  });

  it('attributes each step to the tokens before its read position, gradient×input included', async () => {
    const prm = ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 1 })), createByteBpeTokenizer());
    const { value, notes } = await prm.stepGradients([pair]);
    expect(notes[0]).toMatch(/backend "tiny"/);
    const [explained] = value.pairs;
    expect(explained!.steps).toHaveLength(3);
    for (const step of explained!.steps) {
      const before = [...step.norms.subarray(0, step.readTokenIndex + 1)];
      expect(before.every((norm) => norm > 0)).toBe(true);
      expect([...step.norms.subarray(step.readTokenIndex + 1)].every((norm) => norm === 0)).toBe(true);
      expect([...step.gradientTimesInput.subarray(step.readTokenIndex + 1)].every((value) => value === 0)).toBe(true);
      expect(step.vectors).toBeUndefined();
    }
  });

  it('refuses hvp misuse with typed errors naming the field, never a zero or NaN product', async () => {
    const prm = ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 1 }), { threads: 1 }), createByteBpeTokenizer());
    const code = { code: 'INVALID_INPUT' };
    await expect(prm.hvp(pair, undefined as never)).rejects.toMatchObject(code);
    await expect(prm.hvp(pair, {} as never)).rejects.toThrow(/options.direction must be an object/);
    await expect(prm.hvp(pair, { direction: { parameters: { 'lm_head.weight': new Float32Array(1) } as never } })).rejects.toThrow(/must be a Map/);
    const gradient = (await prm.hvp(pair, { direction: {} })).value.gradient.parameters!;
    const [name, tensor] = [...gradient.entries()][3]!;
    // The backend names the size it expected (core checks the same for backends that do not).
    await expect(prm.hvp(pair, { direction: { parameters: new Map([[name, new Float32Array(tensor.length - 1)]]) } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(`${tensor.length - 1} values`),
    });
    await expect(prm.hvp(pair, { direction: { parameters: new Map([['nope', new Float32Array(3)]]) } })).rejects.toThrow(
      /options.direction: backend "tiny": the direction names "nope", which is not a parameter of this model/,
    );
    const nan = new Float32Array(tensor.length);
    nan[5] = Number.NaN;
    await expect(prm.hvp(pair, { direction: { parameters: new Map([[name, nan]]) } })).rejects.toThrow(/holds NaN at index 5; a direction must be finite/);
    // With the parameters' block not asked for, the direction is still checked, and only the embeddings come back.
    const ones = new Float32Array(tensor.length).fill(1);
    const embeddingsOnly = await prm.hvp(pair, { direction: { parameters: new Map([[name, ones]]) }, wrt: { parameters: false } });
    expect(embeddingsOnly.value.hvp.parameters).toBeUndefined();
    expect(embeddingsOnly.value.hvp.inputEmbeddings!.some((value) => value !== 0)).toBe(true);
  });

  it('an hvp through NaN weights is a NonFiniteOutputError, not NaN values', async () => {
    const model = createRandomDecoder({ seed: 1 });
    model.tensors.get('model.layers.0.mlp.down_proj.weight')!.fill(Number.NaN);
    const prm = ProcessRM.fromBackend(createTinyBackend(model, { threads: 1 }), createByteBpeTokenizer());
    await expect(prm.hvp(pair, { direction: {} })).rejects.toMatchObject({ code: 'NON_FINITE_OUTPUT' });
  });
});
