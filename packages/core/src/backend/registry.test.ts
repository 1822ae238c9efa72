import { afterEach, describe, expect, it } from 'vitest';
import { BackendResolutionError } from '../errors/backend-resolution-error.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { createRandomDecoder } from '../model/random-decoder.js';
import type { ModelSource } from './model-source.js';
import { backendCandidates, registerBackend, resolveBackend, type BackendRegistration } from './registry.js';
import type { BackendV1 } from './v1/backend-v1.js';

const source: ModelSource = { kind: 'decoder', model: createRandomDecoder({ seed: 0 }), description: 'a test model' };

function registration(name: string, priority: number, behaviour: { unavailable?: string; fails?: Error; explicitOnly?: boolean } = {}): BackendRegistration {
  return {
    name,
    priority,
    ...(behaviour.explicitOnly ? { explicitOnly: true } : {}),
    unavailableReason: () => behaviour.unavailable ?? null,
    create: async () => {
      if (behaviour.fails) throw behaviour.fails;
      return { name } as unknown as BackendV1;
    },
  };
}

describe('backend registry', () => {
  const removers: (() => void)[] = [];
  afterEach(() => removers.splice(0).forEach((remove) => remove()));

  it('orders auto candidates by priority and leaves explicit-only backends out', () => {
    const list = [registration('tiny', 10), registration('webgpu', 30), registration('swiftshader', 40, { explicitOnly: true }), registration('onnx', 20)];
    expect(backendCandidates('auto', list).map((candidate) => candidate.name)).toEqual(['webgpu', 'onnx', 'tiny']);
    expect(backendCandidates('swiftshader', list).map((candidate) => candidate.name)).toEqual(['swiftshader']);
    expect(backendCandidates('missing', list)).toEqual([]);
  });

  it('falls back in priority order and notes why each was skipped', async () => {
    removers.push(registerBackend(registration('test-high', 1000, { unavailable: 'no adapter here' })));
    removers.push(registerBackend(registration('test-mid', 999, { fails: new Error('out of memory') })));
    removers.push(registerBackend(registration('test-low', 998)));
    const resolved = await resolveBackend('auto', source);
    expect(resolved.backend.name).toBe('test-low');
    expect(resolved.notes).toEqual([
      'backend "test-low" ran a test model',
      'backend "test-high" skipped: no adapter here',
      'backend "test-mid" skipped: failed to start: out of memory',
    ]);
  });

  it('throws one error listing every candidate when none can run', async () => {
    removers.push(registerBackend(registration('test-a', 1000, { unavailable: 'no adapter' })));
    const error = await resolveBackend('test-a', source).catch((caught: unknown) => caught);
    expect(BackendResolutionError.isInstance(error)).toBe(true);
    expect((error as BackendResolutionError).skipped).toEqual([{ name: 'test-a', reason: 'no adapter' }]);
    await expect(resolveBackend('nope', source)).rejects.toThrow(/no backend named "nope" is registered/);
  });

  it('does not mask a broken model behind a fallback', async () => {
    removers.push(registerBackend(registration('test-broken', 1000, { fails: new ModelLoadError('bad header', { file: 'model.onnx' }) })));
    await expect(resolveBackend('test-broken', source)).rejects.toThrow(/model.onnx: bad header/);
  });
});
