/** At most `limit` tasks in flight at once; the others wait in arrival order. */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`the concurrency limit must be a positive integer, got ${limit}`);
  }

  /** Runs `task` when a slot is free. */
  async run<Result>(task: () => Promise<Result>): Promise<Result> {
    // A finishing task hands its slot straight to the next in line, so a newcomer cannot slip in between.
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
