import { BackendContractError, type CacheHandleV1 } from '@reward-lens/spec';
import type { RowKeyValues, StoredRow } from './stored-row.js';

/** A handle on one row's cache; what `doForward` returns with `returnCache`. */
export class OnnxCacheHandle implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  #row: StoredRow | null;

  constructor(
    /** The backend instance (and so the graph) that made the handle. */
    readonly owner: { readonly name: string },
    /** Held once for this handle by whoever passes it. */
    row: StoredRow,
    readonly length: number,
  ) {
    this.#row = row;
  }

  /** The tensors, or a contract error once released. */
  data(): RowKeyValues {
    return this.#live().data;
  }

  get released(): boolean {
    return this.#row === null;
  }

  /** O(1): the tensors are immutable, so the fork shares them. */
  fork(): CacheHandleV1 {
    const row = this.#live();
    row.hold();
    return new OnnxCacheHandle(this.owner, row, this.length);
  }

  /** Drops this handle's hold on the tensors (freed once no fork holds them). Idempotent. */
  release(): void {
    this.#row?.drop();
    this.#row = null;
  }

  #live(): StoredRow {
    if (this.#row === null) throw new BackendContractError(this.owner.name, 'a released cache handle was used');
    return this.#row;
  }
}
