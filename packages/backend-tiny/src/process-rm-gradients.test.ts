import { Capability, createByteBpeTokenizer, createRandomDecoder, ProcessRM, type BackendV1 } from '@reward-lens/core';
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
});
