/** What the batcher needs of a job: which jobs may share a batch, and how many tokens it adds. */
export interface BatchJob {
  /** Jobs run together only when their keys are equal (same work, same settings). */
  key: string;
  tokens: number;
}

export interface DynamicBatcherOptions {
  /** A batch stops growing before its jobs' tokens would pass this (a single larger job runs alone). */
  maxBatchTokens: number;
  /** Jobs per batch at most. */
  maxBatchSize: number;
  /** How long the oldest queued job may wait for company before its batch runs anyway. */
  maxWaitMs: number;
  /** Called after every batch, for metrics. */
  onBatch?(batch: { size: number; tokens: number; key: string; seconds: number }): void;
}

interface Queued<Job, Result> {
  job: Job;
  enqueuedAt: number;
  resolve(result: Result): void;
  reject(error: unknown): void;
  /** Set when the job's request gave up: a queued job is dropped, a running one's result is discarded. */
  cancelled: boolean;
}

/**
 * Collects jobs from concurrent requests into batches: a batch runs when it is full (tokens or
 * jobs), when its oldest job has waited `maxWaitMs`, or at once while the server shuts down. One
 * batch runs at a time (the model is one), jobs keep their arrival order within a key, and while a
 * batch runs the next one fills up, which is where the throughput of batching comes from.
 */
export class DynamicBatcher<Job extends BatchJob, Result> {
  private readonly queue: Queued<Job, Result>[] = [];
  private running = false;
  private flushing = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly runBatch: (jobs: Job[]) => Promise<Result[]>,
    private readonly options: DynamicBatcherOptions,
  ) {}

  /** Jobs waiting for a batch. */
  get queued(): number {
    return this.queue.length;
  }

  /** Queues a job; its result comes when its batch has run. An aborted signal drops it from the queue. */
  submit(job: Job, signal?: AbortSignal): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        entry.cancelled = true;
        const index = this.queue.indexOf(entry);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal!.reason);
      };
      // The listener goes when the job settles: a signal shared by a request's records keeps none behind.
      const settled =
        <T>(settle: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          settle(value);
        };
      const entry: Queued<Job, Result> = { job, enqueuedAt: performance.now(), resolve: settled(resolve), reject: settled(reject), cancelled: false };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.scheduleSoon();
    });
  }

  /** Stops waiting for company: every queued job runs as soon as it can (graceful shutdown). */
  flush(): void {
    this.flushing = true;
    this.scheduleSoon();
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The jobs of the oldest job's key that fit one batch, in arrival order. */
  private nextBatch(): Queued<Job, Result>[] {
    const key = this.queue[0]!.job.key;
    const batch: Queued<Job, Result>[] = [];
    let tokens = 0;
    for (const entry of this.queue) {
      if (entry.job.key !== key) continue;
      if (batch.length > 0 && (batch.length >= this.options.maxBatchSize || tokens + entry.job.tokens > this.options.maxBatchTokens)) break;
      batch.push(entry);
      tokens += entry.job.tokens;
    }
    return batch;
  }

  private isFull(batch: readonly Queued<Job, Result>[]): boolean {
    if (batch.length >= this.options.maxBatchSize) return true;
    // Full when the next job of the key would not fit.
    return batch.length < this.queue.filter((entry) => entry.job.key === batch[0]!.job.key).length;
  }

  /**
   * Decides after the current turn of the event loop, not at once: the requests whose bytes
   * arrived together (while the previous batch ran, say) all reach the queue first, so a batch
   * forms from them even with no wait at all, and the first of them does not run alone.
   */
  private scheduleSoon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running) return;
    if (this.queue.length === 0) {
      this.idleWaiters.splice(0).forEach((resolve) => resolve());
      return;
    }
    const waited = performance.now() - this.queue[0]!.enqueuedAt;
    const batch = this.nextBatch();
    if (this.flushing || waited >= this.options.maxWaitMs || this.isFull(batch)) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      void this.run(batch);
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.schedule();
    }, this.options.maxWaitMs - waited);
  }

  private async run(batch: Queued<Job, Result>[]): Promise<void> {
    this.running = true;
    for (const entry of batch) this.queue.splice(this.queue.indexOf(entry), 1);
    const started = performance.now();
    try {
      const results = await this.runBatch(batch.map((entry) => entry.job));
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} jobs gave ${results.length} results`);
      batch.forEach((entry, index) => {
        if (!entry.cancelled) entry.resolve(results[index]!);
      });
    } catch (error) {
      for (const entry of batch) if (!entry.cancelled) entry.reject(error);
    } finally {
      this.running = false;
      this.options.onBatch?.({
        size: batch.length,
        tokens: batch.reduce((total, entry) => total + entry.job.tokens, 0),
        key: batch[0]!.job.key,
        seconds: (performance.now() - started) / 1000,
      });
      // Let the requests that arrived while the batch ran be read before the next batch forms.
      this.scheduleSoon();
    }
  }
}
