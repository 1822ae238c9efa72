/**
 * What backend-tiny needs of a platform to run on several threads: workers that share memory.
 * Node gives `worker_threads` (`platform-node.ts`), a cross-origin isolated page Web Workers
 * (`platform-browser.ts`); `#tiny-platform` is the one for where the package runs.
 */

/** A worker thread as the pool drives it. */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once if the worker stops other than by `terminate()`: an uncaught error, out of memory, an exit. */
  onFailure(listener: (reason: string) => void): void;
  terminate(): void;
  /** Stops the thread as a crash would: its failure is reported (for fault tests). */
  kill(): void;
  /** Lets an idle worker keep the process alive (`ref`) or not (`unref`); no-ops where threads never hold a process. */
  ref(): void;
  unref(): void;
}

/** The worker side of the channel. */
export interface WorkerPort {
  onMessage(listener: (message: unknown) => void): void;
  postMessage(message: unknown, transfer?: Transferable[]): void;
}

export interface ThreadPlatform {
  /** `node` or `browser`. */
  readonly name: string;
  /** Why worker threads that share memory cannot run here, or null when they can. */
  unavailableReason(): string | null;
  /** The threads to use when none are asked for: the cores, or 1 where workers cannot share memory. */
  defaultThreads(): number;
  spawn(): WorkerLike;
}
