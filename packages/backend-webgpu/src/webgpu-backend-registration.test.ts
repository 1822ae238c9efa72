import { createRandomDecoder, registerBackend, resolveBackend, type ModelSource } from '@reward-lens/spec';
import { tinyBackendRegistration } from '@reward-lens/backend-tiny';
import { afterEach, describe, expect, it } from 'vitest';
import { webGpuBackendRegistration, webGpuSoftwareBackendRegistration } from './webgpu-backend-registration.js';
import { sharedSoftwareDevice, webGpuUnavailableReason } from '../test/support/software-gpu.js';

const source: ModelSource = { kind: 'decoder', model: createRandomDecoder({ seed: 5 }), description: 'a seeded model' };
const unavailable = await webGpuUnavailableReason();

describe('webgpu registrations', () => {
  const removers: (() => void)[] = [];
  afterEach(() => removers.splice(0).forEach((remove) => remove()));

  it('skip ONNX graphs with a reason', async () => {
    for (const registration of [webGpuBackendRegistration, webGpuSoftwareBackendRegistration]) {
      expect(await registration.unavailableReason({ kind: 'onnx', path: 'model.onnx', description: 'graph' }, { requestedByName: true })).toMatch(
        /not ONNX graphs/,
      );
    }
    expect(webGpuBackendRegistration.priority).toBe(30);
    expect(webGpuSoftwareBackendRegistration.explicitOnly).toBe(true);
  });

  describe.skipIf(unavailable !== null)('on a machine whose only adapter is SwiftShader', () => {
    it('leaves webgpu to auto only with a hardware adapter, and falls back to tiny with a note', async () => {
      expect(await webGpuBackendRegistration.unavailableReason(source, { requestedByName: false })).toMatch(/software|no WebGPU adapter/);
      removers.push(registerBackend(webGpuBackendRegistration), registerBackend(webGpuSoftwareBackendRegistration), registerBackend(tinyBackendRegistration));
      const { backend, notes } = await resolveBackend('auto', source);
      expect(backend.name).toBe('tiny');
      expect(notes.some((note) => /backend "webgpu" skipped/.test(note))).toBe(true);
      // Explicit-only: never tried by auto, even when nothing else answers.
      expect(notes.some((note) => note.startsWith('backend "webgpu-software"'))).toBe(false);
    });

    it('runs webgpu on the software adapter when asked for by name, never by auto', async () => {
      expect(await webGpuBackendRegistration.unavailableReason(source, { requestedByName: true })).toBeNull();
      removers.push(registerBackend(webGpuBackendRegistration));
      const { backend, notes } = await resolveBackend('webgpu', source, { settings: { webgpu: { device: await sharedSoftwareDevice() } } });
      try {
        expect(backend.name).toBe('webgpu');
        expect(backend.info.description).toMatch(/SwiftShader/);
        expect(notes[0]).toMatch(/^backend "webgpu" ran/);
      } finally {
        await backend.dispose();
      }
    });

    it('runs webgpu-software when asked by name', async () => {
      expect(await webGpuSoftwareBackendRegistration.unavailableReason(source, { requestedByName: true })).toBeNull();
      removers.push(registerBackend(webGpuSoftwareBackendRegistration));
      // The shared device only saves compiling the shaders again.
      const { backend } = await resolveBackend('webgpu-software', source, { settings: { 'webgpu-software': { device: await sharedSoftwareDevice() } } });
      try {
        expect(backend.name).toBe('webgpu-software');
        expect(backend.info.description).toMatch(/SwiftShader/);
        const result = await backend.doForward({
          batchSize: 1,
          sequenceLength: 2,
          inputIds: Int32Array.of(3, 4),
          attentionMask: Uint8Array.of(1, 1),
          reads: [{ kind: 'head', head: 'value', positions: [[0, 1]] }],
        });
        expect(result.reads[0]!.values[0]).toHaveLength(2);
      } finally {
        await backend.dispose();
      }
    });
  });
});
