import { describe, expect, it } from 'vitest';
import { DynamicBatcher, type BatchJob } from './dynamic-batcher.js';

interface Job extends BatchJob {
  value: number;
}

function job(value: number, options: { key?: string; tokens?: number } = {}): Job {
  return { key: options.key ?? 'a', tokens: options.tokens ?? 10, value };
}

/** A batcher whose batches double their values, recording each batch it ran. */
function recording(options: { maxBatchTokens?: number; maxBatchSize?: number; maxWaitMs?: number } = {}) {
  const batches: number[][] = [];
  let running = 0;
  let overlapped = false;
  const batcher = new DynamicBatcher<Job, number>(
    async (jobs) => {
      running += 1;
      overlapped ||= running > 1;
      batches.push(jobs.map((entry) => entry.value));
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return jobs.map((entry) => entry.value * 2);
    },
    { maxBatchTokens: options.maxBatchTokens ?? 1000, maxBatchSize: options.maxBatchSize ?? 100, maxWaitMs: options.maxWaitMs ?? 20 },
  );
  return { batcher, batches, overlapped: () => overlapped };
}

describe('DynamicBatcher', () => {
  it('gathers concurrent jobs into one batch and gives each caller its own result', async () => {
    const { batcher, batches } = recording();
    const results = await Promise.all([1, 2, 3, 4].map((value) => batcher.submit(job(value))));
    expect(results).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('stops a batch at its job and token limits, runs one batch at a time, and keeps arrival order', async () => {
    const bySize = recording({ maxBatchSize: 3 });
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((value) => bySize.batcher.submit(job(value))));
    expect(bySize.batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(bySize.overlapped()).toBe(false);

    const byTokens = recording({ maxBatchTokens: 25 });
    await Promise.all([job(1), job(2), job(3, { tokens: 40 }), job(4)].map((entry) => byTokens.batcher.submit(entry)));
    // A job larger than the limit runs alone rather than never.
    expect(byTokens.batches).toEqual([[1, 2], [3], [4]]);
  });

  it('batches only jobs of one key together, oldest key first', async () => {
    const { batcher, batches } = recording();
    await Promise.all([job(1), job(2, { key: 'b' }), job(3), job(4, { key: 'b' })].map((entry) => batcher.submit(entry)));
    expect(batches).toEqual([
      [1, 3],
      [2, 4],
    ]);
  });

  it('waits at most maxWaitMs for company, and not at all once flushed', async () => {
    const { batcher, batches } = recording({ maxWaitMs: 10_000 });
    const pending = batcher.submit(job(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([]);
    batcher.flush();
    expect(await pending).toBe(2);

    const quick = recording({ maxWaitMs: 15 });
    const started = performance.now();
    await quick.batcher.submit(job(5));
    expect(performance.now() - started).toBeGreaterThanOrEqual(14);
  });

  it('drops a queued job whose request gave up, and rejects it with the reason', async () => {
    const { batcher, batches } = recording({ maxWaitMs: 30 });
    const controller = new AbortController();
    const dropped = batcher.submit(job(1), controller.signal);
    const kept = batcher.submit(job(2));
    controller.abort(new Error('timed out'));
    await expect(dropped).rejects.toThrow('timed out');
    expect(await kept).toBe(4);
    expect(batches).toEqual([[2]]);
    await batcher.idle();
    expect(batcher.queued).toBe(0);
  });

  it("rejects every job of a failed batch with the batch's error, and goes on", async () => {
    let calls = 0;
    const batcher = new DynamicBatcher<Job, number>(
      async (jobs) => {
        calls += 1;
        if (calls === 1) throw new Error('backend failed');
        return jobs.map((entry) => entry.value);
      },
      { maxBatchTokens: 100, maxBatchSize: 10, maxWaitMs: 0 },
    );
    const first = batcher.submit(job(1));
    await expect(first).rejects.toThrow('backend failed');
    expect(await batcher.submit(job(2))).toBe(2);
  });
});
