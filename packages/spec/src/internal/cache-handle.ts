import type { CacheHandleV1 } from '../backend/v1/backend-v1.js';
import { BackendContractError } from '../errors/backend-contract-error.js';

/**
 * What a backend's cache handle and its forks share: the cached keys and values (`data`), and
 * who frees them. `hold` runs for each fork, `drop` for each release; the last drop frees them.
 */
export interface CacheHolding<Data> {
  readonly data: Data;
  hold(): void;
  drop(): void;
}

/** The backend instance a handle belongs to (its name, for errors). */
export interface CacheOwner {
  readonly name: string;
}

/**
 * The one cache-handle lifecycle every first-party backend uses: a handle names the backend
 * instance that made it, is a contract error once released (`data`, `fork`), forks in O(1) by
 * sharing its holding, and releases idempotently.
 */
export class BackendCacheHandle<Data> implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  #holding: CacheHolding<Data> | null;

  constructor(
    /** The backend instance (and so the model) that made the handle. */
    readonly owner: CacheOwner,
    /** Held once for this handle by whoever passes it. */
    holding: CacheHolding<Data>,
    readonly length: number,
  ) {
    this.#holding = holding;
  }

  get released(): boolean {
    return this.#holding === null;
  }

  /** The cached data, or a contract error once released. */
  data(): Data {
    if (this.#holding === null) throw new BackendContractError(this.owner.name, 'a released cache handle was used');
    return this.#holding.data;
  }

  /** O(1): the fork shares the holding (cached keys and values are never written after they are made). */
  fork(): CacheHandleV1 {
    const holding = this.#holding;
    if (holding === null) throw new BackendContractError(this.owner.name, 'cannot fork a released cache handle');
    holding.hold();
    return new BackendCacheHandle(this.owner, holding, this.length);
  }

  /** Drops this handle's hold (the data is freed once no fork holds it). Idempotent. */
  release(): void {
    const holding = this.#holding;
    this.#holding = null;
    holding?.drop();
  }
}

/**
 * `past[row]` of a request as this backend instance's own handle: a handle of another backend
 * (or another instance: another model) or anything else is a contract error, as is a released one.
 */
export function ownCacheHandle<Data>(owner: CacheOwner, past: CacheHandleV1, row: number): BackendCacheHandle<Data> {
  if (!(past instanceof BackendCacheHandle) || past.owner !== owner) {
    throw new BackendContractError(owner.name, `past[${row}] is not a cache handle made by this backend instance`);
  }
  return past as BackendCacheHandle<Data>;
}

/** A holding whose data the garbage collector frees (plain arrays): nothing to count. */
export function collectedHolding<Data>(data: Data): CacheHolding<Data> {
  return { data, hold() {}, drop() {} };
}
