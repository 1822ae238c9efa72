import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createReferenceBackend } from '@reward-lens/core/testing';
import { createOrtBackendFromSource, type OrtSourceFactory } from '@reward-lens/onnx-backend-common';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { writeTemporaryOnnxGraph } from '@reward-lens/onnx-export/node';
import { createRandomDecoder, type DecoderModel } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { batchOf, valueAt } from '../test/support/requests.js';
import { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';

const model: DecoderModel = createRandomDecoder({ seed: 5 });
const request = batchOf([{ ids: [5, 6, 7, 8, 9, 10, 11, 12] }], valueAt);

/** onnx-node's factory as its registration builds it, with the in-memory limit set by the test. */
function factory(inMemoryLimitBytes: number, folders: string[]): OrtSourceFactory<OnnxNodeBackendOptions> {
  return {
    name: 'onnx-node',
    create: createOnnxNodeBackend,
    exporter: async () => exportDecoderToOnnx,
    exportToFiles: async () => async (decoder, options) => {
      const files = await writeTemporaryOnnxGraph(decoder, options);
      folders.push(dirname(files.graph));
      return files;
    },
    inMemoryLimitBytes,
  };
}

describe('decoder weights over the in-memory limit', () => {
  it.each(['fp32', 'q4'] as const)(
    '%s: go through a temporary folder with external data, removed once loaded, and score as the in-memory export',
    async (dtype) => {
      const folders: string[] = [];
      const source = { kind: 'decoder' as const, model, description: 'seeded weights' };
      const settings = { intraOpThreads: 1 };
      const viaFiles = await createOrtBackendFromSource(factory(0, folders), source, { dtype }, settings);
      const inMemory = await createOrtBackendFromSource(factory(Number.POSITIVE_INFINITY, folders), source, { dtype }, settings);
      try {
        expect(folders).toHaveLength(1);
        await expect(access(folders[0]!)).rejects.toMatchObject({ code: 'ENOENT' });
        expect(viaFiles.info.description).toContain('temporary folder');
        expect(inMemory.info.description).toContain('in memory');
        expect(viaFiles.info.weightDtype ?? 'fp32').toBe(dtype);
        const [files, memory] = [(await viaFiles.doForward(request)).reads[0]!.values[0]!, (await inMemory.doForward(request)).reads[0]!.values[0]!];
        expect(Array.from(files)).toEqual(Array.from(memory));
        if (dtype === 'fp32') {
          // And the float64 oracle over the same weights, independently of either export.
          const oracle = (await createReferenceBackend(model).doForward(request)).reads[0]!.values[0]!;
          files.forEach((value, index) => expect(Math.abs(value - oracle[index]!)).toBeLessThan(1e-4));
        }
        // The cache and hidden states come with the graph either way.
        expect(viaFiles.supportsCache).toBe(true);
        expect((await viaFiles.doForward({ ...request, reads: [{ kind: 'hidden', layer: 1, positions: [[0]] }] })).reads[0]!.width).toBe(
          model.config.hiddenSize,
        );
      } finally {
        await viaFiles.dispose();
        await inMemory.dispose();
      }
    },
  );
});
