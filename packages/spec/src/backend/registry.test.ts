import { afterEach, describe, expect, it } from 'vitest';
import { BackendResolutionError } from '../errors/backend-resolution-error.js';
import { ModelLoadError } from '../errors/model-load-error.js';
import { createRandomDecoder } from '../model/random-decoder.js';
import { isDecoderSource, isOnnxSource, type ModelSource, type ModelSourceBase } from './model-source.js';
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

  it('skips a backend that does not hold the asked weight dtype, saying so, and passes the dtype to the one that does', async () => {
    let given: unknown;
    removers.push(registerBackend(registration('test-fp32-only', 1000)));
    removers.push(
      registerBackend({
        ...registration('test-quantizing', 999),
        dtypes: ['fp32', 'q8'],
        create: async (_source, options) => {
          given = options.dtype;
          return { name: 'test-quantizing' } as unknown as BackendV1;
        },
      }),
    );
    const resolved = await resolveBackend('auto', source, { dtype: 'q8' });
    expect(resolved.backend.name).toBe('test-quantizing');
    expect(given).toBe('q8');
    expect(resolved.notes).toContain('backend "test-fp32-only" skipped: it does not hold weights as q8 (it holds fp32)');
    // fp32 (or no dtype) is every backend's.
    expect((await resolveBackend('auto', source)).backend.name).toBe('test-fp32-only');
    await expect(resolveBackend('test-fp32-only', source, { dtype: 'q4' })).rejects.toThrow(/it does not hold weights as q4 \(it holds fp32\)/);
  });

  it('refuses an unknown dtype before trying any backend, listing the dtypes', async () => {
    await expect(resolveBackend('auto', source, { dtype: 'int3' as never })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'dtype must be one of fp32, fp16, bf16, q8, q4, got "int3"',
    });
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

  it('runs a source of a kind core does not know: kinds are open, and a backend that does not run it is skipped with the reason', async () => {
    interface EndpointSource extends ModelSourceBase {
      kind: 'test.remote-endpoint';
      url: string;
    }
    const isEndpoint = (candidate: ModelSource): candidate is EndpointSource =>
      candidate.kind === 'test.remote-endpoint' && typeof (candidate as { url?: unknown }).url === 'string';
    const served: string[] = [];
    removers.push(
      registerBackend({
        name: 'test-remote',
        priority: 998,
        sourceKinds: ['test.remote-endpoint'],
        unavailableReason: () => null,
        create: async (candidate) => {
          if (!isEndpoint(candidate)) throw new Error('not an endpoint');
          served.push(candidate.url);
          return { name: 'test-remote' } as unknown as BackendV1;
        },
      }),
    );
    removers.push(registerBackend({ ...registration('test-decoder-only', 999), sourceKinds: ['decoder'] }));
    const endpoint: EndpointSource = { kind: 'test.remote-endpoint', url: 'https://example.invalid/prm', description: 'a remote PRM' };
    const resolved = await resolveBackend('auto', endpoint);
    expect(resolved.backend.name).toBe('test-remote');
    expect(served).toEqual(['https://example.invalid/prm']);
    expect(resolved.notes).toContain(
      'backend "test-decoder-only" skipped: backend "test-decoder-only" runs decoder weights in memory, not "test.remote-endpoint" sources',
    );
    expect(isDecoderSource(endpoint)).toBe(false);
    expect(isDecoderSource(source)).toBe(true);
    expect(isOnnxSource({ kind: 'onnx', path: 'model.onnx', description: 'a graph' })).toBe(true);
    expect(isOnnxSource({ kind: 'onnx', description: 'no path' } as ModelSource)).toBe(false);
  });
});
