import { createRandomDecoder, defineDecoderConfig, registerBackend, resolveBackend } from '@reward-lens/spec';
import { conformanceConfigs, createReferenceBackend, mlpClassifierHead, runBackendConformance, vitestHarness } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { createFloat32Backend, float32BackendRegistration } from './index.js';

// Seeded weights: the kit loads every head shape and compares with its float64 oracle. This
// backend has no KV cache, so the cache tests are reported as skipped, with that reason.
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'float32 example plugin',
  createBackend: async (model) => createFloat32Backend(model),
});

// Bring your own model: a fixed model the kit does not seed, with outputs its author computed
// elsewhere (here with the kit's float64 oracle; for a real model, with its reference code).
const fixed = createRandomDecoder({ seed: 2024, config: conformanceConfigs[1]!.config });
const ids = [1, 87, 14, 300, 22, 5];
const oracle = createReferenceBackend(fixed);
const expected = await oracle.doForward({
  batchSize: 1,
  sequenceLength: ids.length,
  inputIds: Int32Array.from(ids),
  attentionMask: new Uint8Array(ids.length).fill(1),
  reads: [{ kind: 'head', head: mlpClassifierHead.name, positions: [[2, 5]] }],
});
runBackendConformance({
  harness: vitestHarness({ describe, it }),
  label: 'float32 example plugin',
  ownModel: {
    createBackend: async () => createFloat32Backend(fixed),
    references: [
      {
        label: 'the Qwen-style head',
        inputIds: ids,
        read: { kind: 'head', head: mlpClassifierHead.name },
        positions: [2, 5],
        expected: expected.reads[0]!.values[0]!,
      },
    ],
  },
});

describe('float32BackendRegistration', () => {
  it('resolves by name for decoder weights and skips other kinds of source with a reason', async () => {
    const remove = registerBackend(float32BackendRegistration);
    try {
      const model = createRandomDecoder({ seed: 3, config: defineDecoderConfig({ ...conformanceConfigs[0]!.config }) });
      const { backend, notes } = await resolveBackend('float32-example', { kind: 'decoder', model, description: 'seeded weights' });
      expect(backend.name).toBe('float32-example');
      expect(notes).toEqual(['backend "float32-example" ran seeded weights']);
      await backend.dispose();
      await expect(resolveBackend('float32-example', { kind: 'onnx', path: 'model.onnx', description: 'a graph' })).rejects.toThrow(
        /float32-example: backend "float32-example" runs decoder weights in memory, not ONNX graphs/,
      );
    } finally {
      remove();
    }
  });
});
