import { abortBarrier } from './barrier.js';
import type { ModelPayload, PoolJob, PoolMessage, PoolReply } from './protocol.js';
import type { ThreadPlatform, WorkerLike } from './thread-platform.js';

/** A worker stopped while a job of the current run was on it (its failure is the run's). */
export class WorkerFailure extends Error {
  constructor(
    readonly worker: number,
    readonly reason: string,
  ) {
    super(`worker thread ${worker} stopped: ${reason}`);
    this.name = 'WorkerFailure';
  }
}

/** An error a job threw inside a worker, rebuilt on this side. */
export class WorkerJobError extends Error {
  constructor(
    readonly worker: number,
    error: { name: string; message: string; code?: string; stack?: string },
  ) {
    super(error.message);
    this.name = error.name;
    if (error.code !== undefined) (this as { code?: string }).code = error.code;
    if (error.stack !== undefined) this.stack = error.stack;
  }
}

class PoolWorker {
  readonly loaded = new Set<number>();
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #failure: WorkerFailure | undefined;

  constructor(
    readonly index: number,
    readonly thread: WorkerLike,
    onFailure: (failure: WorkerFailure) => void,
  ) {
    thread.onMessage((data) => {
      const reply = data as PoolReply;
      const pending = this.#pending.get(reply.call);
      if (pending === undefined) return;
      this.#pending.delete(reply.call);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new WorkerJobError(index, reply.error));
    });
    thread.onFailure((reason) => {
      this.#failure = new WorkerFailure(index, reason);
      for (const pending of this.#pending.values()) pending.reject(this.#failure);
      this.#pending.clear();
      onFailure(this.#failure);
    });
  }

  get failed(): boolean {
    return this.#failure !== undefined;
  }

  call(call: number, job: PoolJob, transfer: Transferable[]): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#pending.set(call, { resolve, reject });
      this.thread.postMessage({ ...job, call } satisfies PoolMessage, transfer);
    });
  }
}

/** What a run of the pool offers the code that drives its workers. */
export interface PoolRun {
  /** Runs `job` on worker `worker` (0-based, below the run's thread count). */
  call<T>(worker: number, job: PoolJob, transfer?: Transferable[]): Promise<T>;
  /** A barrier of the run's: aborted if a worker fails, so its other workers stop waiting. */
  track(barrier: Int32Array): void;
}

/**
 * The process's worker threads for backend-tiny, shared by every backend (as onnxruntime shares
 * one thread pool): workers are started when a run first needs them, each model is loaded on a
 * worker once (its weights shared, not copied), and runs go one at a time, in order. Idle
 * workers do not keep the process alive. A worker that stops fails the run it was in (and
 * only that one): every worker is then ended, and the next run starts fresh ones.
 */
export class WorkerPool {
  readonly #platform: ThreadPlatform;
  #workers: PoolWorker[] = [];
  readonly #models = new Map<number, ModelPayload>();
  #queue: Promise<unknown> = Promise.resolve();
  #running = 0;
  #nextModel = 1;
  #nextCall = 1;
  #endWhenIdle = false;

  constructor(platform: ThreadPlatform) {
    this.#platform = platform;
  }

  /** Workers started now (0 when none is, after a failure or once every model is unregistered). */
  get size(): number {
    return this.#workers.length;
  }

  /** Runs in progress (0 or 1: runs go one at a time). */
  get busy(): number {
    return this.#running;
  }

  /** Makes a model known to the pool; workers load it when a run first uses them. Returns its id. */
  register(model: ModelPayload): number {
    const id = this.#nextModel++;
    this.#models.set(id, model);
    return id;
  }

  /** Forgets a model (its workers drop it); with no model left, ends every worker. */
  unregister(id: number): void {
    if (!this.#models.delete(id)) return;
    for (const worker of this.#workers) {
      if (worker.loaded.delete(id) && !worker.failed) worker.thread.postMessage({ type: 'unload', model: id } satisfies PoolMessage);
    }
    if (this.#models.size > 0) return;
    if (this.#running > 0) this.#endWhenIdle = true;
    else this.#endWorkers();
  }

  /**
   * Runs `body` on `threads` workers with model `model` loaded on each, after every earlier run
   * ended. A worker's failure rejects the run with `WorkerFailure` (once all its calls settled).
   */
  run<T>(model: number, threads: number, body: (run: PoolRun) => Promise<T>): Promise<T> {
    const result = this.#queue.then(() => this.#execute(model, threads, body));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #execute<T>(model: number, threads: number, body: (run: PoolRun) => Promise<T>): Promise<T> {
    const load = this.#models.get(model);
    if (load === undefined) throw new Error(`model ${model} is not registered with the pool`);
    while (this.#workers.length < threads) this.#workers.push(this.#spawn(this.#workers.length));
    const workers = this.#workers.slice(0, threads);
    for (const worker of workers) {
      if (worker.loaded.has(model)) continue;
      worker.thread.postMessage({ type: 'load', model, ...load } as PoolMessage);
      worker.loaded.add(model);
    }
    this.#running++;
    if (this.#running === 1) for (const worker of this.#workers) worker.thread.ref();
    const calls: Promise<unknown>[] = [];
    const barriers: Int32Array[] = [];
    const run: PoolRun = {
      call: <R>(index: number, job: PoolJob, transfer: Transferable[] = []) => {
        const call = workers[index]!.call(this.#nextCall++, job, transfer);
        calls.push(call.catch(() => undefined));
        return call as Promise<R>;
      },
      track: (barrier) => barriers.push(barrier),
    };
    try {
      return await body(run);
    } catch (error) {
      for (const barrier of barriers) abortBarrier(barrier);
      await Promise.all(calls);
      const failure = workers.find((worker) => worker.failed);
      if (failure) this.#endWorkers();
      throw error;
    } finally {
      this.#running--;
      if (this.#running === 0) for (const worker of this.#workers) worker.thread.unref();
      if (this.#running === 0 && this.#endWhenIdle && this.#models.size === 0) this.#endWorkers();
    }
  }

  /** For fault tests: worker `index` stops as a crash (out of memory, a bug) would stop it. */
  crashWorker(index: number): void {
    this.#workers[index]?.thread.kill();
  }

  #spawn(index: number): PoolWorker {
    const thread = this.#platform.spawn();
    thread.unref();
    return new PoolWorker(index, thread, () => {
      // A failure outside a run (an idle worker died) is noticed here; the next run starts afresh.
      if (this.#running === 0) this.#endWorkers();
    });
  }

  #endWorkers(): void {
    this.#endWhenIdle = false;
    const workers = this.#workers;
    this.#workers = [];
    for (const worker of workers) worker.thread.terminate();
  }
}
