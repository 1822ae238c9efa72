import { describe, expect, it } from 'vitest';
import { BackendContractError } from '../errors/backend-contract-error.js';
import { BackendCacheHandle, collectedHolding, ownCacheHandle, type CacheHolding } from './cache-handle.js';

/** A holding that counts its holders and records when it is freed, as a backend's would. */
function countedHolding(data: string): CacheHolding<string> & { holders: number; freed: boolean } {
  const holding = {
    data,
    holders: 1,
    freed: false,
    hold() {
      holding.holders++;
    },
    drop() {
      if (--holding.holders === 0) holding.freed = true;
    },
  };
  return holding;
}

describe('BackendCacheHandle: the one cache-handle lifecycle of the first-party backends', () => {
  const owner = { name: 'test-backend' };

  it('forks share the holding, and the data is freed when the last handle is released, in any order', () => {
    const holding = countedHolding('keys and values');
    const handle = new BackendCacheHandle(owner, holding, 7);
    const fork = handle.fork() as BackendCacheHandle<string>;
    const forkOfFork = fork.fork() as BackendCacheHandle<string>;
    expect(holding.holders).toBe(3);
    expect([fork.length, forkOfFork.length, forkOfFork.data()]).toEqual([7, 7, 'keys and values']);
    fork.release();
    handle.release();
    expect(holding.freed).toBe(false);
    forkOfFork.release();
    expect(holding.freed).toBe(true);
  });

  it('releases idempotently: a second release drops nothing more', () => {
    const holding = countedHolding('x');
    const handle = new BackendCacheHandle(owner, holding, 1);
    const fork = handle.fork() as BackendCacheHandle<string>;
    handle.release();
    handle.release();
    expect(holding.holders).toBe(1);
    expect(handle.released).toBe(true);
    expect(fork.released).toBe(false);
  });

  it('refuses a released handle with contract errors naming the backend', () => {
    const handle = new BackendCacheHandle(owner, collectedHolding([1, 2]), 2);
    handle.release();
    expect(() => handle.data()).toThrow(BackendContractError);
    expect(() => handle.data()).toThrow(/test-backend.*a released cache handle was used/);
    expect(() => handle.fork()).toThrow(/cannot fork a released cache handle/);
  });

  it("accepts only this instance's own handles as a past", () => {
    const handle = new BackendCacheHandle(owner, collectedHolding('mine'), 3);
    expect(ownCacheHandle<string>(owner, handle, 0).data()).toBe('mine');
    const otherInstance = new BackendCacheHandle({ name: 'test-backend' }, collectedHolding('theirs'), 3);
    expect(() => ownCacheHandle(owner, otherInstance, 1)).toThrow(/past\[1\] is not a cache handle made by this backend instance/);
    const forged = { specificationVersion: 'v1' as const, length: 3, released: false, fork: () => forged, release() {} };
    expect(() => ownCacheHandle(owner, forged, 2)).toThrow(BackendContractError);
  });
});
