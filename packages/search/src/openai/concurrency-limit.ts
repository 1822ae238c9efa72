/** At most `limit` holders at once; others wait in arrival order. */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`the concurrency limit must be a positive integer, got ${limit}`);
  }

  /** Runs `work` when a slot is free. */
  async run<Result>(work: () => Promise<Result>): Promise<Result> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
