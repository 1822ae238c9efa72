/** How a remote client retries: attempts after the first, and the exponential backoff's bounds. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** The first backoff's ceiling; each retry doubles it. */
  baseDelayMs: number;
  /** No backoff, and no Retry-After the client is willing to wait, is longer than this. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 10_000 };

/** 429 (too many requests) and 503 (unavailable, e.g. vLLM still loading) say "try again later". */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * A Retry-After header in milliseconds: delay-seconds (`"3"`) or an HTTP date. Undefined when
 * absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The wait before retry `attempt` (0 = the first retry): "full jitter", a uniform draw below
 * `min(maxDelayMs, baseDelayMs * 2^attempt)`, so clients that failed together do not retry together.
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
