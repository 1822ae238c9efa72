import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, isRetryableStatus, parseRetryAfter } from './retry-policy.js';

const retryAfter = (value: string | null, name = 'retry-after') => new Headers(value === null ? {} : { [name]: value });

describe('retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter(retryAfter('3'), now)).toBe(3000);
    expect(parseRetryAfter(retryAfter(' 0 '), now)).toBe(0);
    expect(parseRetryAfter(retryAfter('Wed, 21 Oct 2015 07:28:05 GMT'), now)).toBe(5000);
    expect(parseRetryAfter(retryAfter('Wed, 21 Oct 2015 07:27:00 GMT'), now)).toBe(0);
    expect(parseRetryAfter(retryAfter('soon'), now)).toBeUndefined();
    expect(parseRetryAfter(retryAfter(null), now)).toBeUndefined();
    expect(parseRetryAfter(retryAfter('1500', 'retry-after-ms'), now)).toBe(1500);
  });

  it('retries timeouts, conflicts, rate limits and server errors (as the OpenAI SDKs do), nothing a retry cannot fix', () => {
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422, 501].some(isRetryableStatus)).toBe(false);
  });

  it('draws each backoff below min(max, base * 2^attempt), so it grows and stays bounded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (attempt, base, max, draw) => {
          const delay = backoffDelayMs(attempt, { baseDelayMs: base, maxDelayMs: max }, () => draw);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThan(Math.max(1, Math.min(max, base * 2 ** attempt)));
        },
      ),
    );
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, policy, () => 0.5))).toEqual([50, 100, 200, 400, 500]);
  });
});
