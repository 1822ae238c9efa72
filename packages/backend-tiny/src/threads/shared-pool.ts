import { InvalidInputError } from '@reward-lens/spec';
import { threadPlatform } from '#tiny-platform';
import { WorkerPool } from './worker-pool.js';

let pool: WorkerPool | undefined;

/** The process's worker pool (one for every backend, as onnxruntime has one thread pool). */
export function sharedWorkerPool(): WorkerPool {
  pool ??= new WorkerPool(threadPlatform);
  return pool;
}

/** How many threads a backend runs on, and why fewer than asked when so. */
export interface ThreadSetting {
  threads: number;
  /** Set when the backend runs on fewer threads than asked (or than the default would be): why. */
  note?: string;
}

/**
 * Resolves the `threads` option: a positive integer, or by default every core
 * (`os.availableParallelism()` in Node), or 1 where workers cannot share memory (a page that is
 * not cross-origin isolated) or the kernels cannot move to other threads (a `KernelSet` of your own).
 */
export function resolveThreads(requested: number | undefined, ownKernels: boolean): ThreadSetting {
  if (requested !== undefined && !(Number.isSafeInteger(requested) && requested >= 1)) {
    throw new InvalidInputError(`threads must be a positive integer, got ${requested}`);
  }
  const wanted = requested ?? threadPlatform.defaultThreads();
  if (wanted <= 1) {
    const reason = requested === undefined ? threadPlatform.unavailableReason() : null;
    return reason === null ? { threads: 1 } : { threads: 1, note: `one thread: ${reason}` };
  }
  const reason = threadPlatform.unavailableReason();
  if (reason !== null) return { threads: 1, note: `one thread, not ${wanted}: ${reason}` };
  if (ownKernels) return { threads: 1, note: `one thread, not ${wanted}: a KernelSet of your own runs on the calling thread only` };
  return { threads: wanted };
}
