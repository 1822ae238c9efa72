/**
 * How every remote client of reward-lens retries (vLLM's `/pooling`, OpenAI-compatible
 * `/completions`): attempts after the first, the exponential backoff's bounds, and the longest
 * `Retry-After` a client waits out.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** The first backoff's ceiling; each retry doubles it. */
  baseDelayMs: number;
  /** No backoff is longer than this. */
  maxDelayMs: number;
  /** A server asking to wait longer than this (`Retry-After`) fails the request instead. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };

/** Statuses that say "try again" (as the OpenAI SDKs retry them): timeout, conflict, rate limit, server errors and unavailable (vLLM still loading). */
const retryableStatuses = new Set([408, 409, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.has(status);
}

/**
 * How long a server asked to wait, in milliseconds: `retry-after-ms`, or `Retry-After` as
 * delay-seconds (`"3"`) or an HTTP date (a date in the past is 0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null }, nowMs: number): number | undefined {
  const milliseconds = headers.get('retry-after-ms')?.trim();
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds)) return Number(milliseconds);
  const text = headers.get('retry-after')?.trim();
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The wait before retry `attempt` (0 = the first retry): "full jitter", a uniform draw below
 * `min(maxDelayMs, baseDelayMs * 2^attempt)`, so clients that failed together do not retry together.
 */
export function backoffDelayMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
