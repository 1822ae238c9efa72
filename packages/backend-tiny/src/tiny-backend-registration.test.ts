import { createRandomDecoder, registerBackend, resolveBackend } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { tinyBackendRegistration } from './tiny-backend-registration.js';

describe('tinyBackendRegistration', () => {
  const model = createRandomDecoder({ seed: 1 });

  it('runs decoder sources and skips ONNX graphs with a reason', () => {
    expect(tinyBackendRegistration.unavailableReason({ kind: 'decoder', model, description: 'seeded' }, { requestedByName: false })).toBeNull();
    expect(tinyBackendRegistration.unavailableReason({ kind: 'onnx', path: 'model.onnx', description: 'graph' }, { requestedByName: true })).toMatch(
      /not ONNX/,
    );
  });

  it('is resolved by name and by auto once registered', async () => {
    const unregister = registerBackend(tinyBackendRegistration);
    try {
      for (const requested of ['tiny', 'auto']) {
        const { backend, notes } = await resolveBackend(requested, { kind: 'decoder', model, description: 'a seeded model' });
        expect(backend.name).toBe('tiny');
        expect(backend.info.description).toMatch(/ kernels=wasm-simd$/);
        expect(notes[0]).toContain('"tiny"');
      }
    } finally {
      unregister();
    }
  });
});
