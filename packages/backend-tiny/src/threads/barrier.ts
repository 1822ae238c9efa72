/**
 * A barrier in shared memory for the workers of one forward pass: `[arrived, generation,
 * aborted]`. Workers wait with a timeout and check `aborted`, so a pass whose other worker died
 * or failed ends instead of hanging (the pool, or the failing worker, sets it).
 */
export function createBarrier(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(12));
}

/** Thrown in a worker waiting at a barrier that was aborted. */
export class BarrierAbortedError extends Error {
  constructor() {
    super('the pass was aborted: another thread of it failed');
    this.name = 'BarrierAbortedError';
  }
}

/** Waits until `participants` threads have arrived (worker threads only: a page's main thread may not block). */
export function arriveAndWait(barrier: Int32Array, participants: number): void {
  if (participants <= 1) return;
  const generation = Atomics.load(barrier, 1);
  if (Atomics.add(barrier, 0, 1) === participants - 1) {
    Atomics.store(barrier, 0, 0);
    Atomics.add(barrier, 1, 1);
    Atomics.notify(barrier, 1);
    return;
  }
  while (Atomics.load(barrier, 1) === generation) {
    if (Atomics.load(barrier, 2) !== 0) throw new BarrierAbortedError();
    Atomics.wait(barrier, 1, generation, 50);
  }
}

/** Releases every thread waiting at the barrier, and every later arrival, with `BarrierAbortedError`. */
export function abortBarrier(barrier: Int32Array): void {
  Atomics.store(barrier, 2, 1);
  Atomics.notify(barrier, 1);
}
