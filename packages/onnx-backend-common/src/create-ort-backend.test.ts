import { ModelLoadError } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createOrtBackend } from './create-ort-backend.js';
import type { OrtModule, OrtSession, OrtTensor, OrtValueMetadata } from './ort-module.js';

class FakeTensor implements OrtTensor {
  constructor(
    readonly type: string,
    readonly data: BigInt64Array | Float32Array | Uint16Array,
    readonly dims: readonly number[],
  ) {}
}

const tensor = (name: string, type: string, shape: (number | string)[]): OrtValueMetadata => ({ name, isTensor: true, type, shape });
const inputs = [
  tensor('input_ids', 'int64', ['batch', 'sequence']),
  tensor('attention_mask', 'int64', ['batch', 'total']),
  tensor('position_ids', 'int64', ['batch', 'sequence']),
];
const config = { vocabSize: 16, hiddenSize: 4, numLayers: 1, maxPositions: 32 };

interface SessionLog {
  runs: { feeds: Record<string, OrtTensor>; fetches: string[] }[];
  released: number;
}

/** A session that answers `scores.value` with each token's position id: what the backend fed, read back. */
function fakeOrt(outputs: OrtValueMetadata[], log: SessionLog): OrtModule {
  const session: OrtSession = {
    inputMetadata: inputs,
    outputMetadata: outputs,
    async run(feeds, fetches) {
      log.runs.push({ feeds, fetches });
      const positions = feeds.position_ids!.data as BigInt64Array;
      return { 'scores.value': new FakeTensor('float32', Float32Array.from(positions, Number), [...feeds.position_ids!.dims, 1]) };
    },
    async release() {
      log.released++;
    },
  };
  return { InferenceSession: { create: async () => session }, Tensor: FakeTensor };
}

describe('createOrtBackend over an injected onnxruntime module', () => {
  it('feeds position ids counting real tokens, fetches only what the reads need', async () => {
    const log: SessionLog = { runs: [], released: 0 };
    const ort = fakeOrt([tensor('scores.value', 'float32', ['batch', 'sequence', 1]), tensor('logits', 'float32', ['batch', 'sequence', 16])], log);
    const backend = await createOrtBackend(new Uint8Array(1), { name: 'onnx-fake', ort, config, runtimeNote: 'fake runtime' });
    expect(backend.name).toBe('onnx-fake');
    expect(backend.info.description).toMatch(/^onnx decoder hidden=4 layers=1, fake runtime$/);
    // Row 0 left-padded by two, row 1 unpadded.
    const request = { batchSize: 2, sequenceLength: 4, inputIds: Int32Array.of(0, 0, 5, 6, 1, 2, 3, 4), attentionMask: Uint8Array.of(0, 0, 1, 1, 1, 1, 1, 1) };
    const { reads } = await backend.doForward({
      ...request,
      reads: [
        {
          kind: 'head',
          head: 'value',
          positions: [
            [2, 3],
            [0, 3],
          ],
        },
      ],
    });
    expect(reads[0]!.values).toEqual([Float32Array.of(0, 1), Float32Array.of(0, 3)]);
    expect(log.runs[0]!.fetches).toEqual(['scores.value']);
    expect(log.runs[0]!.feeds.attention_mask!.data).toEqual(BigInt64Array.of(0n, 0n, 1n, 1n, 1n, 1n, 1n, 1n));
    await backend.dispose();
    await backend.dispose();
    expect(log.released).toBe(1);
  });

  it('reports a model onnxruntime cannot load, and a graph of no known layout, as ModelLoadErrors', async () => {
    const failing: OrtModule = { InferenceSession: { create: () => Promise.reject(new Error('protobuf parsing failed ')) }, Tensor: FakeTensor };
    const error = await createOrtBackend('model.onnx', { name: 'onnx-fake', ort: failing }).catch((caught: unknown) => caught);
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect((error as ModelLoadError).message).toBe('model.onnx: onnxruntime cannot load it (protobuf parsing failed)');

    const log: SessionLog = { runs: [], released: 0 };
    const unknown = await createOrtBackend(new Uint8Array(1), {
      name: 'onnx-fake',
      ort: fakeOrt([tensor('last_hidden_state', 'float32', [1, 2, 4])], log),
      config,
    }).catch((caught: unknown) => caught);
    expect((unknown as Error).message).toMatch(/^<in-memory ONNX model>: it has no head outputs.*\n.*\n {2}input_ids int64 \[batch, sequence\]/);
    expect(log.released).toBe(1);
  });
});
