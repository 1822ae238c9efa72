import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, defineDecoderConfig, type BackendV1, type DecoderModel, type ForwardRequestV1, type ForwardResultV1 } from '@reward-lens/spec';
import { createReferenceBackend, dequantizedModel, expectClose } from '@reward-lens/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebGpuBackend } from './create-webgpu-backend.js';
import { quantizationPlan, quantizeTensor, type BackendCacheHandle } from '@reward-lens/spec/internal';
import { sharedSoftwareDevice, webGpuUnavailableReason } from '../test/support/software-gpu.js';

// Mistral-shaped, with a head size that is not hidden/heads and odd widths everywhere.
const config = defineDecoderConfig({
  architecture: 'mistral',
  hiddenSize: 40,
  numLayers: 2,
  numHeads: 6,
  numKvHeads: 2,
  headDim: 12,
  intermediateSize: 70,
  vocabSize: 300,
  maxPositions: 128,
  ropeTheta: 500,
  rmsNormEps: 1e-5,
  tieWordEmbeddings: false,
  attentionBias: false,
  heads: [
    { name: 'lm', kind: 'lm' },
    { name: 'classifier', kind: 'token-classification', numLabels: 3, weight: 'score.weight', bias: 'score.bias' },
  ],
});
const model = createRandomDecoder({ seed: 21, config });

function ids(length: number, seed: number): Int32Array {
  return Int32Array.from({ length }, (_, index) => (index * 31 + seed * 17) % config.vocabSize);
}

/** Rows padded on the given sides, every real position read: hidden states of each layer, the lm head on some columns, the classifier at layer 1. */
function paddedRequest(rows: Int32Array[], sides: ('left' | 'right')[]): ForwardRequestV1 {
  const sequenceLength = Math.max(...rows.map((row) => row.length)) + 1;
  const inputIds = new Int32Array(rows.length * sequenceLength);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const positions = rows.map((row, index) => {
    const shift = sides[index] === 'left' ? sequenceLength - row.length : 0;
    inputIds.set(row, index * sequenceLength + shift);
    attentionMask.fill(1, index * sequenceLength + shift, index * sequenceLength + shift + row.length);
    return Array.from(row, (_, position) => position + shift);
  });
  return {
    batchSize: rows.length,
    sequenceLength,
    inputIds,
    attentionMask,
    reads: [
      ...[0, 1, 2].map((layer) => ({ kind: 'hidden' as const, layer, positions })),
      { kind: 'head' as const, head: 'lm', positions, columns: [7, 299, 0, 7] },
      { kind: 'head' as const, head: 'classifier', positions, layer: 1 },
    ],
  };
}

/** The model as a loader hands it over at `dtype`: the plan's matrices held in that format, the rest float32. */
function heldAs(dtype: 'bf16' | 'fp16' | 'q8' | 'q4', source: DecoderModel = model): DecoderModel {
  const plan = quantizationPlan(source.config, dtype).tensors;
  return {
    config: source.config,
    tensors: new Map([...source.tensors].filter(([name]) => !plan.has(name))),
    quantized: new Map([...plan].map(([name, { rows, columns, format }]) => [name, quantizeTensor(source.tensors.get(name)!, format, rows, columns)])),
  };
}

/** Every read of every row of `ours` within 1e-4 of `theirs`, and equal to `same`'s, where given. */
function expectReads(ours: ForwardResultV1, theirs: ForwardResultV1, same?: ForwardResultV1): void {
  ours.reads.forEach((read, index) => {
    read.values.forEach((values, row) => {
      expectClose(values, theirs.reads[index]!.values[row]!, 1e-4, `read ${index} row ${row}`);
      if (same) expect(Array.from(same.reads[index]!.values[row]!)).toEqual(Array.from(values));
    });
  });
}

const unavailable = await webGpuUnavailableReason();

describe.skipIf(unavailable !== null)('createWebGpuBackend (SwiftShader)', () => {
  let backend: BackendV1;
  const reference = createTinyBackend(model);
  beforeAll(async () => {
    backend = await createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), precision: 'fp16' });
  });
  afterAll(() => backend.dispose());

  it('says which adapter it runs on, and that fp16 fell back to fp32 without shader-f16', () => {
    expect(backend.name).toBe('webgpu');
    expect(backend.precision).toBe('fp32');
    expect(backend.info.description).toMatch(/SwiftShader.*software.*fp32 \(fp16 was asked for, but the adapter lacks shader-f16\)/);
  });

  it("holds a loader's bf16 tensors as they are (dtype 'bf16', no feature needed), and scores as backend-tiny runs the same bf16 weights", async () => {
    const bf16Model = heldAs('bf16');
    const gpu = await createWebGpuBackend(bf16Model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), precision: 'bf16' });
    // The same weights from float32, rounded to bf16 on upload: the same bits, so the same scores.
    const rounded = await createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), precision: 'bf16' });
    const tiny = createTinyBackend(bf16Model, { threads: 1 });
    try {
      expect(gpu.precision).toBe('bf16');
      expect(gpu.info.weightDtype).toBe('bf16');
      expect(gpu.info.description).toMatch(/SwiftShader.*, bf16, \d\.\d\d bytes\/parameter on the GPU$/);
      expect(gpu.info.notes).toContain(
        'backend "webgpu" holds the projection weights and the embedding table as bf16 (16-bit brain floats, each weight rounded to the nearest) on the GPU, widened to f32 in its kernels; norms and heads stay float32, and scores differ from the fp32 model\'s',
      );
      const request = paddedRequest([ids(12, 5), ids(7, 2)], ['right', 'left']);
      const [ours, again, theirs] = [await gpu.doForward(request), await rounded.doForward(request), await tiny.doForward(request)];
      expectReads(ours, theirs, again);
    } finally {
      await gpu.dispose();
      await rounded.dispose();
      await tiny.dispose();
    }
  });

  it("takes a loader's fp16 tensors (dtype 'fp16'), widened exactly, as backend-tiny runs the same fp16 weights", async () => {
    const half = heldAs('fp16');
    const gpu = await createWebGpuBackend(half, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), precision: 'fp16' });
    const tiny = createTinyBackend(half, { threads: 1 });
    try {
      expect(tiny.info.weightDtype).toBe('fp16');
      const request = paddedRequest([ids(12, 5)], ['right']);
      const [ours, theirs] = [await gpu.doForward(request), await tiny.doForward(request)];
      ours.reads.forEach((read, index) => expectClose(read.values[0]!, theirs.reads[index]!.values[0]!, 1e-4, `read ${index}`));
    } finally {
      await gpu.dispose();
      await tiny.dispose();
    }
  });

  it("holds a loader's q8 tensors as they are, dequantized exactly in the kernels: the float64 oracle's reads over the same weights dequantized", async () => {
    const q8 = heldAs('q8');
    const gpu = await createWebGpuBackend(q8, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice() });
    // q4 on rows of 40 weights (not whole blocks of 32): every matrix is held as q8, and a note says so.
    const q4 = await createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), dtype: 'q4' });
    const oracle = createReferenceBackend(dequantizedModel(model, 'q8'));
    try {
      expect([gpu.info.weightDtype, gpu.precision]).toEqual(['q8', 'fp32']);
      expect(gpu.info.notes?.join('\n')).toContain('as q8 (8-bit integers, one float scale per output channel) on the GPU, dequantized to f32 in its kernels');
      expect(q4.info.notes?.join('\n')).toContain('holds some matrices as q8, not q4');
      const request = paddedRequest([ids(12, 5), ids(7, 2)], ['left', 'right']);
      const [ours, fallback, theirs] = [await gpu.doForward(request), await q4.doForward(request), await oracle.doForward(request)];
      expectReads(ours, theirs, fallback);
    } finally {
      await gpu.dispose();
      await q4.dispose();
    }
  });

  it("holds a loader's q4 tensors as they are (rows of whole 32-weight blocks), dequantized exactly: the float64 oracle's reads over the same weights", async () => {
    const blocks = createRandomDecoder({
      seed: 22,
      config: defineDecoderConfig({ ...config, hiddenSize: 64, numHeads: 4, numKvHeads: 2, headDim: 16, intermediateSize: 96 }),
    });
    const q4 = heldAs('q4', blocks);
    expect([...q4.quantized!.values()].every((tensor) => tensor.format === 'q4')).toBe(true);
    const gpu = await createWebGpuBackend(q4, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice() });
    const oracle = createReferenceBackend(dequantizedModel(blocks, 'q4'));
    try {
      expect(gpu.info.weightDtype).toBe('q4');
      expect(gpu.info.notes?.join('\n')).not.toContain('not q4');
      const request = paddedRequest([ids(12, 5), ids(7, 2)], ['left', 'right']);
      const [ours, theirs] = [await gpu.doForward(request), await oracle.doForward(request)];
      expectReads(ours, theirs);
    } finally {
      await gpu.dispose();
    }
  });

  it('says in its description what the weights take on the GPU, per parameter: 4 at fp32, less at bf16, less again at q8', async () => {
    const perParameter = async (dtype: 'fp32' | 'bf16' | 'q8') => {
      const gpu = await createWebGpuBackend(model, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice(), dtype });
      await gpu.dispose();
      return Number(/, (\d+\.\d\d) bytes\/parameter on the GPU$/.exec(gpu.info.description)?.[1]);
    };
    const [fp32, bf16, q8] = [await perParameter('fp32'), await perParameter('bf16'), await perParameter('q8')];
    expect(fp32).toBe(4);
    // This small model's heads and norms (float32 under every dtype) are a large share of it.
    expect(bf16).toBeLessThan(0.75 * fp32);
    expect(q8).toBeLessThan(0.75 * bf16);
  });

  it('matches backend-tiny on every read of a batch padded on both sides, row by row', async () => {
    const rows = [ids(9, 1), ids(70, 2), ids(1, 3)];
    const ours = await backend.doForward(paddedRequest(rows, ['left', 'right', 'left']));
    for (let row = 0; row < rows.length; row++) {
      const alone = await reference.doForward(paddedRequest([rows[row]!], ['right']));
      ours.reads.forEach((read, index) => {
        expect(read.width).toBe(alone.reads[index]!.width);
        expectClose(read.values[row]!, alone.reads[index]!.values[0]!, 1e-4, `row ${row}, read ${index}`);
      });
    }
  });

  it('computes only the requested lm columns, equal to those of the full vocabulary', async () => {
    const request = paddedRequest([ids(5, 4)], ['right']);
    const positions = [[4]];
    const [some, all] = (
      await backend.doForward({
        ...request,
        reads: [
          { kind: 'head', head: 'lm', positions, columns: [3, 200] },
          { kind: 'head', head: 'lm', positions },
        ],
      })
    ).reads;
    expect(all!.width).toBe(config.vocabSize);
    expect(Array.from(some!.values[0]!)).toEqual([all!.values[0]![3], all!.values[0]![200]]);
  });

  it('gives concurrent calls the results of sequential ones', async () => {
    const requests = [paddedRequest([ids(12, 5), ids(3, 6)], ['left', 'right']), paddedRequest([ids(30, 7)], ['right'])];
    const sequential = [];
    for (const request of requests) sequential.push(await backend.doForward(request));
    const concurrent = await Promise.all(requests.map((request) => backend.doForward(request)));
    expect(concurrent).toEqual(sequential);
  });

  describe('KV cache on the GPU', () => {
    const valueOfClasses = (positions: number[][]) => ({ kind: 'head' as const, head: 'classifier', positions });
    const batch = (rows: Int32Array[]): ForwardRequestV1 => {
      const sequenceLength = Math.max(1, ...rows.map((row) => row.length));
      const inputIds = new Int32Array(rows.length * sequenceLength);
      const attentionMask = new Uint8Array(rows.length * sequenceLength);
      rows.forEach((row, index) => {
        inputIds.set(row, index * sequenceLength);
        attentionMask.fill(1, index * sequenceLength, index * sequenceLength + row.length);
      });
      return {
        batchSize: rows.length,
        sequenceLength,
        inputIds,
        attentionMask,
        reads: [valueOfClasses(rows.map((row) => Array.from(row, (_, index) => index)))],
      };
    };

    it('continues cached and fresh rows in one batch, and hands back caches that cover past and new tokens', async () => {
      const whole = ids(20, 8);
      const other = ids(6, 9);
      const prefix = await backend.doForward({ ...batch([whole.slice(0, 13)]), returnCache: true });
      const [cache] = prefix.caches!;
      const mixed = await backend.doForward({ ...batch([whole.slice(13), other]), past: [cache!, null], returnCache: true });
      expect(mixed.caches!.map((handle) => handle.length)).toEqual([20, 6]);
      const fullPass = (await reference.doForward(batch([whole]))).reads[0]!.values[0]!;
      expectClose(mixed.reads[0]!.values[0]!, fullPass.subarray(13 * 3), 1e-4, 'continued row');
      expectClose(mixed.reads[0]!.values[1]!, (await reference.doForward(batch([other]))).reads[0]!.values[0]!, 1e-4, 'fresh row');
      // A continuation of the returned cache by zero tokens is an empty read with a full cache.
      const empty = await backend.doForward({ ...batch([new Int32Array(0)]), past: [mixed.caches![0]!], returnCache: true });
      expect(empty.caches![0]!.length).toBe(20);
      expect(empty.reads[0]!.values[0]).toHaveLength(0);
      const next = await backend.doForward({ ...batch([ids(2, 10)]), past: [empty.caches![0]!] });
      const longer = Int32Array.from([...whole, ...ids(2, 10)]);
      expectClose(next.reads[0]!.values[0]!, (await reference.doForward(batch([longer]))).reads[0]!.values[0]!.subarray(20 * 3), 1e-4, 'after an empty step');
      for (const handle of [cache!, ...mixed.caches!, ...empty.caches!]) handle.release();
    });

    it('forks a cache in O(1): the fork shares the buffer, which lives until the last handle is released', async () => {
      const whole = ids(16, 12);
      const { caches } = await backend.doForward({ ...batch([whole.slice(0, 10)]), returnCache: true });
      const original = caches![0]! as BackendCacheHandle<GPUBuffer>;
      const forks = [original.fork(), original.fork().fork()] as BackendCacheHandle<GPUBuffer>[];
      for (const fork of forks) expect(fork.data()).toBe(original.data());
      const expected = (await reference.doForward(batch([whole]))).reads[0]!.values[0]!.subarray(10 * 3);
      // Released in any order, each remaining handle still continues the prefix exactly.
      original.release();
      const viaFork = await backend.doForward({ ...batch([whole.slice(10)]), past: [forks[0]!] });
      expectClose(viaFork.reads[0]!.values[0]!, expected, 1e-4, 'continued from a fork after the original was released');
      forks[0]!.release();
      const viaLast = await backend.doForward({ ...batch([whole.slice(10)]), past: [forks[1]!] });
      expectClose(viaLast.reads[0]!.values[0]!, expected, 1e-4, 'continued from the last fork');
      forks[1]!.release();
      await expect(backend.doForward({ ...batch([whole.slice(10)]), past: [forks[1]!] })).rejects.toMatchObject({ code: 'BACKEND_CONTRACT' });
    });

    it('rejects released handles, handles of another backend, and forks of released handles', async () => {
      const { caches } = await backend.doForward({ ...batch([ids(4, 11)]), returnCache: true });
      const handle = caches![0]!;
      handle.release();
      await expect(backend.doForward({ ...batch([ids(1, 1)]), past: [handle] })).rejects.toMatchObject({ code: 'BACKEND_CONTRACT', message: /released/ });
      expect(() => handle.fork()).toThrow(/released/);
      const foreign = (await reference.doForward({ ...batch([ids(4, 11)]), returnCache: true })).caches![0]!;
      await expect(backend.doForward({ ...batch([ids(1, 1)]), past: [foreign] })).rejects.toMatchObject({
        code: 'BACKEND_CONTRACT',
        message: /not a cache handle made by this backend/,
      });
    });
  });
});

describe.skipIf(unavailable !== null)('rotary tables sized by the positions scored (SwiftShader)', () => {
  const huge = defineDecoderConfig({
    ...config,
    hiddenSize: 24,
    numLayers: 1,
    numHeads: 2,
    numKvHeads: 1,
    headDim: 12,
    intermediateSize: 32,
    maxPositions: 1e12,
  });
  const hugeModel = createRandomDecoder({ seed: 4, config: huge });
  const row = (length: number) => Int32Array.from({ length }, (_, index) => (index * 13 + 5) % huge.vocabSize);
  const request = (tokens: Int32Array, positions: number[]): ForwardRequestV1 => ({
    batchSize: 1,
    sequenceLength: tokens.length,
    inputIds: tokens,
    attentionMask: new Uint8Array(tokens.length).fill(1),
    reads: [{ kind: 'head', head: 'classifier', positions: [positions] }],
  });

  it('loads a model declaring 1e12 positions without a table for each, and grows the tables past their first size (also under a cache)', async () => {
    const backend = await createWebGpuBackend(hugeModel, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice() });
    const reference = createReferenceBackend(hugeModel);
    try {
      expect(backend.info.maxPositions).toBe(1e12);
      const tokens = row(1200);
      const last = [0, 1023, 1024, 1199];
      const expected = (await reference.doForward(request(tokens, last))).reads[0]!.values[0]!;
      expectClose((await backend.doForward(request(tokens, last))).reads[0]!.values[0]!, expected, 1e-4, '1200 tokens in one pass');
      // A prefix of 1000 tokens, then 200 more through its cache: positions 1000..1199 are rotated by the grown tables.
      const fresh = await createWebGpuBackend(hugeModel, { allowSoftwareAdapter: true, device: await sharedSoftwareDevice() });
      try {
        const { caches } = await fresh.doForward({ ...request(tokens.slice(0, 1000), [0]), returnCache: true });
        const rest = await fresh.doForward({ ...request(tokens.slice(1000), [23, 24, 199]), past: [caches![0]!] });
        expectClose(rest.reads[0]!.values[0]!, expected.subarray(3), 1e-4, 'positions 1023, 1024 and 1199 after a cached prefix');
        caches![0]!.release();
      } finally {
        await fresh.dispose();
      }
    } finally {
      await backend.dispose();
      await reference.dispose();
    }
  });
});
