import type { ForwardRequestV1 } from '@reward-lens/spec';
import { BackendCacheHandle, collectedHolding, ownCacheHandle } from '@reward-lens/spec/internal';
import { KvStorage } from './kv-cache.js';
import type { RowCache } from './model/forward.js';

export interface CacheLayout {
  numLayers: number;
  /** `numKvHeads * headDim`. */
  width: number;
  /** New storages on `SharedArrayBuffer`s, for worker threads (see `KvStorage`). */
  shared?: boolean;
}

/**
 * Chooses, per row, the storage its keys and values go to. A row whose past ends where its
 * storage's committed length ends appends in place; any other row with a past copies the
 * prefix into a fresh storage. Only the first row per storage in a request may append in
 * place, so two rows continuing one handle never share a tail (even without returnCache,
 * where the tail is scratch). Every handle is checked before anything is touched, so a
 * rejected request changes no cache.
 */
export function planRowCaches(owner: { readonly name: string }, request: ForwardRequestV1, realTokens: readonly number[], layout: CacheLayout): RowCache[] {
  const pasts = realTokens.map((_, row) => {
    const past = request.past?.[row] ?? null;
    if (past === null) return null;
    const own = ownCacheHandle<KvStorage>(owner, past, row);
    return { storage: own.data(), length: own.length };
  });

  const keepsCache = request.returnCache === true;
  const claimed = new Set<KvStorage>();
  return realTokens.map((count, row) => {
    const past = pasts[row];
    if (!past) {
      const storage = new KvStorage(layout.numLayers, layout.width, count, layout.shared === true);
      if (keepsCache) storage.committedLength = request.cacheLengths?.[row] ?? count;
      return { storage, pastLength: 0 };
    }
    const total = past.length + count;
    let storage = past.storage;
    if (storage.committedLength === past.length && !claimed.has(storage)) {
      storage.ensureCapacity(total, past.length);
    } else {
      storage = storage.copyPrefix(past.length, total);
    }
    claimed.add(storage);
    // Without returnCache (or past a row's `cacheLengths`) the tail written after the committed
    // length is scratch that the next in-place extension overwrites.
    if (keepsCache) storage.committedLength = request.cacheLengths?.[row] ?? total;
    return { storage, pastLength: past.length };
  });
}

/** The handles `returnCache` hands back: each covers its row's past and new real tokens, or its `cacheLengths` entry. */
export function cacheHandles(
  owner: { readonly name: string },
  rowCaches: readonly RowCache[],
  realTokens: readonly number[],
  cacheLengths: readonly number[] | undefined,
): BackendCacheHandle<KvStorage>[] {
  // Storage is append-only below every handle's length, so handles and forks share it; the garbage collector frees it.
  return rowCaches.map(
    (rowCache, row) => new BackendCacheHandle(owner, collectedHolding(rowCache.storage), cacheLengths?.[row] ?? rowCache.pastLength + realTokens[row]!),
  );
}
