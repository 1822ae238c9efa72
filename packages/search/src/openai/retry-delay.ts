/**
 * How long a server asked us to wait, in milliseconds: `retry-after-ms`, or `Retry-After` as
 * seconds or an HTTP date. Null when it did not say (or said something unreadable).
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Number(milliseconds);
  const value = headers.get('retry-after');
  if (value === null) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter for retry `retry` (0 for the first retry): `initial * 2^retry`,
 * capped at `max`, then shortened by up to a quarter at random so that clients that failed together
 * do not retry together (as the OpenAI SDKs do).
 */
export function backoffMs(retry: number, options: { initialMs: number; maxMs: number; random: () => number }): number {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** retry);
  return base * (1 - 0.25 * options.random());
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
