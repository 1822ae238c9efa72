import { BackendContractError, type BackendV1, type CacheHandleV1, type ForwardRequestV1 } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';
import { batchRequest, range, relativeError } from '../test/support/requests.js';
import { testModel, tokenIds } from '../test/support/test-models.js';

const TOLERANCE = 1e-5;
const model = testModel(21, { numKvHeads: 2, attentionBias: true });
const { vocabSize, numLayers } = model.config;

/** Value head and last-layer hidden states at every new token of one row, optionally after a cache. */
function scoreRequest(ids: readonly number[], past?: CacheHandleV1): ForwardRequestV1 {
  const request = batchRequest([ids], (positionsOf) => [
    { kind: 'head', head: 'value', positions: [positionsOf(0, range(ids.length))] },
    { kind: 'hidden', layer: numLayers, positions: [positionsOf(0, range(ids.length))] },
  ]);
  return { ...request, returnCache: true, ...(past ? { past: [past] } : {}) };
}

async function fullPass(backend: BackendV1, ids: readonly number[]) {
  const { reads } = await backend.doForward(scoreRequest(ids));
  return reads.map((read) => read.values[0]!);
}

/** Scores `chunks` one after another through the cache; returns the reads of every chunk joined. */
async function incremental(backend: BackendV1, chunks: readonly (readonly number[])[], start?: CacheHandleV1) {
  let past = start;
  const joined: number[][] = [[], []];
  for (const chunk of chunks) {
    const { reads, caches } = await backend.doForward(scoreRequest(chunk, past));
    reads.forEach((read, index) => joined[index]!.push(...read.values[0]!));
    expect(caches![0]!.length).toBe((past?.length ?? 0) + chunk.length);
    past = caches![0]!;
  }
  return { joined, cache: past! };
}

describe('KV cache', () => {
  const ids = tokenIds(60, vocabSize, 5);

  it('scoring a prefix then extending it several times equals one full pass', async () => {
    const backend = createTinyBackend(model);
    const full = await fullPass(backend, ids);
    // Chunks longer than one 32-query attention block, and single tokens.
    const { joined } = await incremental(backend, [ids.slice(0, 6), ids.slice(6, 7), ids.slice(7, 45), ids.slice(45, 46), ids.slice(46)]);
    expect(relativeError(joined[0]!, full[0]!)).toBeLessThan(TOLERANCE);
    expect(relativeError(joined[1]!, full[1]!)).toBeLessThan(TOLERANCE);
  });

  it('forks from one prefix continue independently, and the prefix stays usable', async () => {
    const backend = createTinyBackend(model);
    const prefix = ids.slice(0, 8);
    const { cache } = await incremental(backend, [prefix]);
    const continuations = [tokenIds(5, vocabSize, 9), tokenIds(3, vocabSize, 10), tokenIds(6, vocabSize, 11)];
    // Extend the prefix itself, a fork of it, and a fork of a fork; then the prefix again.
    const starts = [cache, cache.fork(), cache.fork().fork()];
    for (const [index, continuation] of continuations.entries()) {
      const { joined } = await incremental(backend, [continuation, continuation.slice(0, 2)], starts[index]);
      const full = await fullPass(backend, [...prefix, ...continuation, ...continuation.slice(0, 2)]);
      expect(relativeError(joined[0]!, full[0]!.slice(prefix.length))).toBeLessThan(TOLERANCE);
    }
    const again = await incremental(backend, [continuations[0]!], cache);
    const full = await fullPass(backend, [...prefix, ...continuations[0]!]);
    expect(relativeError(again.joined[1]!, full[1]!.slice(prefix.length * model.config.hiddenSize))).toBeLessThan(TOLERANCE);
  });

  it('a continuation stays valid after a sibling extended the same prefix', async () => {
    const backend = createTinyBackend(model);
    const prefix = ids.slice(0, 8);
    const [first, second, more] = [tokenIds(5, vocabSize, 1), tokenIds(4, vocabSize, 2), tokenIds(3, vocabSize, 3)];
    const { cache } = await incremental(backend, [prefix]);
    const { cache: firstCache } = await incremental(backend, [first], cache);
    await incremental(backend, [second], cache.fork());
    await incremental(backend, [second], cache);
    const { joined } = await incremental(backend, [more], firstCache);
    const full = await fullPass(backend, [...prefix, ...first, ...more]);
    expect(relativeError(joined[0]!, full[0]!.slice(13))).toBeLessThan(TOLERANCE);
  });

  it('one handle as the past of several rows of one batch', async () => {
    const backend = createTinyBackend(model);
    const { cache } = await incremental(backend, [ids.slice(0, 5)]);
    const continuations = [tokenIds(4, vocabSize, 1), tokenIds(2, vocabSize, 2)];
    const request = batchRequest(continuations, (positionsOf) => [
      { kind: 'head', head: 'value', positions: continuations.map((row, index) => positionsOf(index, range(row.length))) },
    ]);
    const withCaches = await backend.doForward({ ...request, past: [cache, cache], returnCache: true });
    expect(withCaches.caches!.map((handle) => handle.length)).toEqual([9, 7]);
    const withoutCaches = await backend.doForward({ ...request, past: [cache, cache] });
    for (const [index, continuation] of continuations.entries()) {
      const full = await fullPass(backend, [...ids.slice(0, 5), ...continuation]);
      expect(relativeError(withCaches.reads[0]!.values[index]!, full[0]!.slice(5))).toBeLessThan(TOLERANCE);
      expect(withoutCaches.reads[0]!.values[index]).toEqual(withCaches.reads[0]!.values[index]);
    }
  });

  it('a forward without returnCache leaves the past as it was', async () => {
    const backend = createTinyBackend(model);
    const { cache } = await incremental(backend, [ids.slice(0, 5)]);
    const { past: _unused, ...probe } = scoreRequest(ids.slice(5, 9), cache);
    const first = await backend.doForward({ ...probe, past: [cache], returnCache: false });
    expect(first.caches).toBeUndefined();
    const { joined } = await incremental(backend, [ids.slice(5, 12)], cache);
    expect(joined[0]!.slice(0, 4)).toEqual([...first.reads[0]!.values[0]!]);
  });

  it('a released handle, a foreign handle and another backend’s handle are contract errors', async () => {
    const backend = createTinyBackend(model);
    const other = createTinyBackend(model);
    const { cache } = await incremental(backend, [ids.slice(0, 4)]);
    const { cache: otherCache } = await incremental(other, [ids.slice(0, 4)]);
    const kept = cache.fork();
    cache.release();
    cache.release();
    expect(cache.length).toBe(4);
    await expect(backend.doForward(scoreRequest([1], cache))).rejects.toSatisfy(BackendContractError.isInstance);
    expect(() => cache.fork()).toThrow(/released/);
    const foreign: CacheHandleV1 = { specificationVersion: 'v1', length: 4, fork: () => foreign, release: () => {} };
    await expect(backend.doForward(scoreRequest([1], foreign))).rejects.toSatisfy(BackendContractError.isInstance);
    await expect(backend.doForward(scoreRequest([1], otherCache))).rejects.toSatisfy(BackendContractError.isInstance);
    // The fork taken before the release still works.
    expect((await backend.doForward(scoreRequest([1], kept))).caches![0]!.length).toBe(5);
  });

  it('past plus new tokens beyond maxPositions is a contract error', async () => {
    const backend = createTinyBackend(model);
    const { cache } = await incremental(backend, [tokenIds(60, vocabSize)]);
    await expect(backend.doForward(scoreRequest(tokenIds(5, vocabSize), cache))).rejects.toSatisfy(BackendContractError.isInstance);
  });
});
