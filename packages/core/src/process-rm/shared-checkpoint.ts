import type { CacheHandleV1 } from '@reward-lens/spec';
import type { LikelihoodState } from './likelihood-bound.js';

/**
 * A cache covering the first `length` tokens of a scored prefix, shared read-only by every prefix
 * extended from it, and linked to the checkpoint it was extended from. Holders count themselves
 * (`hold` / `drop`); the last to drop it releases the cache and drops its parent. So extending a
 * prefix adds one checkpoint and forks nothing, whatever the number of steps before it (a fork
 * per earlier checkpoint, each a copy of a GPU buffer on webgpu, was O(steps) per extend).
 */
export class SharedCheckpoint {
  #holders = 1;

  constructor(
    readonly length: number,
    /** Read by forward passes as their `past`, never written: backends treat a past as read-only. */
    readonly cache: CacheHandleV1,
    /** The checkpoint this one's tokens were extended from (held by this one). */
    readonly parent: SharedCheckpoint | undefined,
    /** With a recipe's likelihood head: the bound's state at this checkpoint's end. */
    readonly likelihood?: LikelihoodState,
  ) {}

  /** A new checkpoint extending this one: it holds this one until it is dropped itself. */
  extend(length: number, cache: CacheHandleV1, likelihood?: LikelihoodState): SharedCheckpoint {
    this.#holders++;
    return new SharedCheckpoint(length, cache, this, likelihood);
  }

  hold(): this {
    this.#holders++;
    return this;
  }

  drop(): void {
    if (--this.#holders > 0) return;
    this.cache.release();
    this.parent?.drop();
  }

  /** This checkpoint and those it extends, longest first. */
  *chain(): Generator<SharedCheckpoint> {
    for (let checkpoint: SharedCheckpoint | undefined = this; checkpoint !== undefined; checkpoint = checkpoint.parent) yield checkpoint;
  }
}
