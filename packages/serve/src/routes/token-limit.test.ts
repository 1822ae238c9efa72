import { describe, expect, it } from 'vitest';
import { prepareWithinTokens } from './token-limit.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('preparing a request within its token limit', () => {
  it('stops at the first record past the limit, without preparing the rest', async () => {
    let prepared = 0;
    const values = Array.from({ length: 60_000 }, (_, index) => index);
    const error = await prepareWithinTokens(
      values,
      (value) => {
        prepared++;
        return value;
      },
      () => 10,
      1000,
      new AbortController().signal,
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 413 });
    expect((error as Error).message).toBe(
      "the request holds more than 1000 tokens (1010 in the records counted before stopping); the limit is 1000 (the server's --max-request-tokens): split it",
    );
    expect(prepared).toBe(101);
  });

  it('lets other work run while it prepares (the event loop is never held for the whole request)', async () => {
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    let seenBeforeEnd = false;
    const { prepared, tokens } = await prepareWithinTokens(
      Array.from({ length: 40 }, (_, index) => index),
      (value) => {
        busy(1);
        if (value === 39) seenBeforeEnd = ranBetween;
        return value;
      },
      () => 1,
      1000,
      new AbortController().signal,
    );
    expect(prepared).toHaveLength(40);
    expect(tokens).toBe(40);
    expect(seenBeforeEnd).toBe(true);
  });

  it('stops when the request is aborted (its timeout, a client gone)', async () => {
    const controller = new AbortController();
    const run = prepareWithinTokens(
      Array.from({ length: 1000 }, (_, index) => index),
      (value) => {
        busy(1);
        if (value === 10) controller.abort(new Error('timed out'));
        return value;
      },
      () => 1,
      1_000_000,
      controller.signal,
    );
    await expect(run).rejects.toThrow('timed out');
  });
});
