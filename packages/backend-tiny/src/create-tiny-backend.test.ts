import {
  BackendContractError,
  ModelLoadError,
  createRandomDecoder,
  formatCapabilities,
  tinyDecoderConfig,
  type ForwardRequestV1,
  type ReadRequestV1,
} from '@reward-lens/spec';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createTinyBackend, createTinyBackendAsync, type TinyBackendOptions } from './create-tiny-backend.js';
import { scalarKernels, type KernelSet } from './kernels/kernel-set.js';
import { batchRequest, range } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';

const ids = tokenIds(10, tinyDecoderConfig.vocabSize);
const valueRead = batchRequest([ids], () => [{ kind: 'head', head: 'value', positions: [range(10)] }]);

describe('createTinyBackend', () => {
  it('describes itself from the config', () => {
    const backend = createTinyBackend(createRandomDecoder({ seed: 1 }));
    expect(backend.name).toBe('tiny');
    expect(backend.specificationVersion).toBe('v1');
    expect(backend.precision).toBe('fp32');
    expect(backend.supportsCache).toBe(true);
    expect(formatCapabilities(backend.capabilities)).toBe('SCORES|PREFIX_SCORES|ACTIVATIONS|GRADIENTS|HVP|LINEAR_READOUT|STEP_SCORES');
    expect(backend.info).toEqual({
      description: `llama hidden=64 layers=2 heads=4/2 threads=${availableParallelism()} kernels=wasm-simd`,
      vocabSize: 512,
      hiddenSize: 64,
      numLayers: 2,
      maxPositions: 1024,
      heads: [
        { name: 'value', kind: 'value', width: 1 },
        { name: 'classifier', kind: 'token-classification', width: 2 },
        { name: 'lm', kind: 'lm', width: 512 },
      ],
    });
  });

  it('runs on the kernels asked for, WebAssembly SIMD by default, and says which', async () => {
    const model = createRandomDecoder({ seed: 1 });
    const descriptionOf = (options?: TinyBackendOptions) => createTinyBackend(model, options).info.description;
    expect(descriptionOf()).toMatch(/ kernels=wasm-simd$/);
    expect(descriptionOf({ kernels: 'auto' })).toMatch(/ kernels=wasm-simd$/);
    expect(descriptionOf({ kernels: 'scalar' })).toMatch(/ kernels=scalar$/);

    let products = 0;
    const counting: KernelSet = {
      name: 'counting',
      matmulTransposed(...args) {
        products++;
        scalarKernels.matmulTransposed(...args);
      },
    };
    const backend = createTinyBackend(model, { kernels: counting });
    expect(backend.info.description).toMatch(/ kernels=counting$/);
    const scalar = await createTinyBackend(model, { kernels: 'scalar' }).doForward(valueRead);
    expect(await backend.doForward(valueRead)).toEqual(scalar);
    expect(products).toBeGreaterThan(0);
  });

  it('is created asynchronously on the same kernels, with the same results', async () => {
    const model = createRandomDecoder({ seed: 1 });
    for (const kernels of ['auto', 'wasm-simd', 'scalar'] as const) {
      const synchronous = createTinyBackend(model, { kernels });
      const asynchronous = await createTinyBackendAsync(model, { kernels });
      expect(asynchronous.info).toEqual(synchronous.info);
      expect(await asynchronous.doForward(valueRead)).toEqual(await synchronous.doForward(valueRead));
    }
    await expect(createTinyBackendAsync({ config: model.config, tensors: new Map() })).rejects.toThrow(ModelLoadError);
  });

  it('is deterministic in the seed: same seed, identical outputs; another seed, different ones', async () => {
    const run = async (seed: number) => (await createTinyBackend(createRandomDecoder({ seed })).doForward(valueRead)).reads[0]!.values[0]!;
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    expect(await run(43)).not.toEqual(first);
  });

  it('rejects a model with a missing or mis-sized tensor before doing anything', () => {
    const model = createRandomDecoder({ seed: 1 });
    const missing = new Map(model.tensors);
    missing.delete('model.layers.1.mlp.up_proj.weight');
    expect(() => createTinyBackend({ config: model.config, tensors: missing })).toThrow(ModelLoadError);
    const wrongSize = new Map(model.tensors).set('model.norm.weight', new Float32Array(3));
    expect(() => createTinyBackend({ config: model.config, tensors: wrongSize })).toThrow(/model\.norm\.weight/);
  });

  it('throws contract errors after dispose, which is idempotent', async () => {
    const backend = createTinyBackend(createRandomDecoder({ seed: 1 }));
    await backend.dispose();
    await backend.dispose();
    await expect(backend.doForward(valueRead)).rejects.toSatisfy(BackendContractError.isInstance);
  });

  it('reads nothing and runs no layer when asked for no reads', async () => {
    const backend = createTinyBackend(createRandomDecoder({ seed: 1 }));
    expect(await backend.doForward({ ...valueRead, reads: [] })).toEqual({ reads: [] });
  });
});

describe('request validation gives contract errors', () => {
  const backend = createTinyBackend(testModel(2));
  const base = batchRequest(
    [
      [1, 2, 3],
      [4, 5],
    ],
    () => [],
    { padding: 'left' },
  );
  const withRead = (read: ReadRequestV1): ForwardRequestV1 => ({ ...base, reads: [read] });
  const cases: [string, ForwardRequestV1][] = [
    ['a token id outside the vocabulary', { ...base, inputIds: Int32Array.of(1, 2, 3, 0, 4, 999) }],
    ['inputIds of the wrong length', { ...base, inputIds: Int32Array.of(1, 2, 3) }],
    ['a padding position', withRead({ kind: 'head', head: 'value', positions: [[0], [0]] })],
    ['a position past the row', withRead({ kind: 'head', head: 'value', positions: [[3], [2]] })],
    ['an unknown head', withRead({ kind: 'head', head: 'reward', positions: [[0], [1]] })],
    ['a column outside the head', withRead({ kind: 'head', head: 'classifier', columns: [3], positions: [[0], [1]] })],
    ['a hidden layer past the last', withRead({ kind: 'hidden', layer: 4, positions: [[0], [1]] })],
    ['positions for the wrong number of rows', withRead({ kind: 'hidden', layer: 1, positions: [[0]] })],
    ['past for the wrong number of rows', { ...base, past: [null] }],
  ];
  it.each(cases)('%s', async (_, request) => {
    await expect(backend.doForward(request)).rejects.toSatisfy(BackendContractError.isInstance);
  });
});
