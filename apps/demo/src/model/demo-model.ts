import type { LoadProgress, ProcessRM } from '@reward-lens/core';

/** A PRM the page can load on any backend: the default model, or a folder the user opened. */
export interface DemoModel {
  /** Names the model in the page. */
  readonly name: string;
  /** What its scores mean, said plainly next to them. */
  readonly caveat: string;
  /**
   * Loads it on a backend: a registered name or `'auto'`. Throws a BackendResolutionError when that
   * backend cannot run it here. `onProgress` hears of each tensor read (the page shows it).
   */
  load(backend: string, onProgress?: (progress: LoadProgress) => void): Promise<ProcessRM>;
}
