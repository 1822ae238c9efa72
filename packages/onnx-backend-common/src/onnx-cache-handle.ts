import { BackendContractError, type CacheHandleV1 } from '@reward-lens/core/internal';

/**
 * One row's keys and values: per layer `[kvHeads, length, headDim]` row-major, copied out of
 * the graph's `present.*` outputs. Never written after creation, so forks share it.
 */
export interface RowKeyValues {
  keys: Float32Array[];
  values: Float32Array[];
}

/** A handle on one row's cache; what `doForward` returns with `returnCache`. */
export class OnnxCacheHandle implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  #data: RowKeyValues | null;

  constructor(
    /** The backend instance (and so the graph) that made the handle. */
    readonly owner: { readonly name: string },
    data: RowKeyValues,
    readonly length: number,
  ) {
    this.#data = data;
  }

  /** The tensors, or a contract error once released. */
  data(): RowKeyValues {
    if (this.#data === null) throw new BackendContractError(this.owner.name, 'a released cache handle was used');
    return this.#data;
  }

  get released(): boolean {
    return this.#data === null;
  }

  /** O(1): the tensors are immutable, so the fork shares them. */
  fork(): CacheHandleV1 {
    return new OnnxCacheHandle(this.owner, this.data(), this.length);
  }

  /** Drops this handle's reference to the tensors (freed once no fork holds them). Idempotent. */
  release(): void {
    this.#data = null;
  }
}
