import { BackendWorkerError, InvalidInputError, type BackendV1, type BackwardRequestV1, type ForwardResultV1 } from '@reward-lens/spec';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTinyBackend, type TinyBackendOptions } from './create-tiny-backend.js';
import { scalarKernels } from './kernels/kernel-set.js';
import { range, batchRequest } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';
import { sharedWorkerPool } from './threads/shared-pool.js';

const model = testModel(3, { maxPositions: 512 });
const backends: BackendV1[] = [];
function backend(options: TinyBackendOptions): BackendV1 {
  const created = createTinyBackend(model, options);
  backends.push(created);
  return created;
}
afterAll(async () => {
  for (const created of backends) await created.dispose();
});

/** Every float of two results, compared bit for bit (NaN payloads and the sign of zero included). */
function sameBits(a: readonly Float32Array[], b: readonly Float32Array[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((values, row) => {
    const other = b[row]!;
    if (values.length !== other.length) return false;
    const left = new Uint32Array(values.buffer, values.byteOffset, values.length);
    const right = new Uint32Array(other.buffer, other.byteOffset, other.length);
    return left.every((word, index) => word === right[index]);
  });
}

const readsOf = (result: ForwardResultV1) => result.reads.flatMap((read) => read.values);

/** A request over rows of the given lengths, reading the value head everywhere, the LM head at two columns, and hidden states after layer 2. */
function rowsRequest(lengths: readonly number[], salt = 0) {
  const rows = lengths.map((length, row) => tokenIds(length, 61, salt + row));
  return batchRequest(rows, (positionsOf) => [
    { kind: 'head', head: 'value', positions: rows.map((row, index) => positionsOf(index, range(row.length))) },
    { kind: 'head', head: 'lm', positions: rows.map((row, index) => positionsOf(index, [row.length - 1, 0])), columns: [5, 17] },
    { kind: 'hidden', layer: 2, positions: rows.map((row, index) => positionsOf(index, [Math.floor(row.length / 2)])) },
  ]);
}

describe('backend-tiny on several threads', () => {
  const one = backend({ threads: 1, shardTokens: 16 });
  const two = backend({ threads: 2, sliceTokens: 1, shardTokens: 16 });
  const four = backend({ threads: 4, sliceTokens: 1, shardTokens: 16 });

  it('says how many threads it runs on', () => {
    expect(one.info.description).toMatch(/ threads=1 kernels=wasm-simd$/);
    expect(two.info.description).toMatch(/ threads=2 kernels=wasm-simd$/);
    expect(() => createTinyBackend(model, { threads: 0 })).toThrow(InvalidInputError);
    expect(() => createTinyBackend(model, { threads: 1.5 })).toThrow(/threads must be a positive integer/);
    const own = createTinyBackend(model, { threads: 2, kernels: { ...scalarKernels, name: 'mine' } });
    expect(own.info.description).toMatch(/threads=1 \(one thread, not 2: a KernelSet of your own runs on the calling thread only\)/);
  });

  it('gives the same scores, bit for bit, on 1, 2 and 4 threads, wherever the tokens are cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 5 }), fc.nat(50), async (lengths, salt) => {
        const request = rowsRequest(lengths, salt);
        const expected = readsOf(await one.doForward(request));
        expect(sameBits(readsOf(await two.doForward(request)), expected)).toBe(true);
        expect(sameBits(readsOf(await four.doForward(request)), expected)).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('extends cached prefixes on the pool as on one thread (one long row split across the workers)', async () => {
    const prefix = rowsRequest([70, 40]);
    const suffix = rowsRequest([50, 90], 9);
    const results: Float32Array[][] = [];
    for (const subject of [one, two]) {
      const first = await subject.doForward({ ...prefix, returnCache: true });
      const second = await subject.doForward({ ...suffix, past: first.caches!, returnCache: true });
      results.push([...readsOf(first), ...readsOf(second)]);
      for (const handle of [...first.caches!, ...second.caches!]) handle.release();
    }
    expect(sameBits(results[1]!, results[0]!)).toBe(true);
  });

  it('gives the same gradients and Hessian-vector products, bit for bit, on 1 and 2 threads', async () => {
    const request = rowsRequest([40, 33, 61, 12, 50]);
    const backward = (subject: BackendV1): Promise<Float32Array[]> =>
      subject.doBackward!({
        ...request,
        readGradients: (reads) => reads.map((read) => read.values.map((values) => values.map((value, index) => Math.sin(index + value)))),
      } satisfies BackwardRequestV1).then((result) => [...result.parameters!.values(), ...result.inputEmbeddings!]);
    expect(sameBits(await backward(two), await backward(one))).toBe(true);

    const direction = { parameters: new Map([...model.tensors].map(([name, tensor]) => [name, tensor.map((_, index) => Math.cos(index))])) };
    const hvp = (subject: BackendV1) =>
      subject.doHvp!({ ...request, direction, readGradients: (reads) => reads.map((read) => read.values.map((values) => values.map(() => 1))) }).then(
        (result) => [...result.hvp.parameters!.values(), ...result.hvp.inputEmbeddings!, ...result.readTangents.flatMap((read) => read.values)],
      );
    expect(sameBits(await hvp(two), await hvp(one))).toBe(true);
  });

  it('fails a request whose worker dies with a typed error naming the worker and the request, then serves the next one', async () => {
    // A model whose pass over 1,000 tokens takes a good part of a second, so that it is surely still running when the worker dies.
    const larger = testModel(4, { hiddenSize: 256, intermediateSize: 512, numLayers: 4, numHeads: 8, numKvHeads: 8, maxPositions: 512 });
    const reference = createTinyBackend(larger, { threads: 1 });
    const subject = createTinyBackend(larger, { threads: 2 });
    backends.push(reference, subject);
    const request = rowsRequest([500, 500]);
    const expected = readsOf(await reference.doForward(request));
    await subject.doForward(rowsRequest([80, 80]));
    const running = subject.doForward(request);
    const pool = sharedWorkerPool();
    while (pool.busy === 0) await new Promise((resolve) => setImmediate(resolve));
    pool.crashWorker(1);
    const error = await running.then(
      () => new Error('the request was answered although its worker died'),
      (caught: unknown) => caught,
    );
    if (!BackendWorkerError.isInstance(error)) throw error;
    expect(BackendWorkerError.isInstance(error)).toBe(true);
    expect((error as BackendWorkerError).worker).toBe(1);
    expect((error as BackendWorkerError).message).toMatch(/worker thread 1 stopped while running doForward of 2 row\(s\), 1000 tokens \(request \d+\)/);
    // New workers serve the next request, with the same results.
    expect(sameBits(readsOf(await subject.doForward(request)), expected)).toBe(true);
  });

  it('ends its workers on dispose once no backend uses them', async () => {
    const pool = sharedWorkerPool();
    for (const created of backends.splice(0)) await created.dispose();
    expect(pool.size).toBe(0);
  });
});
