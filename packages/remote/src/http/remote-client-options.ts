import { InvalidInputError } from '@reward-lens/core';
import { defaultRetryPolicy } from './retry-policy.js';
import type { RemoteHttpSettings } from './with-retries.js';

/** What every remote client of reward-lens takes (vLLM's `/pooling`, OpenAI-compatible `/completions`): one set of names, one meaning. */
export interface RemoteClientOptions {
  /** Sent as `Authorization: Bearer <apiKey>` (vLLM's `--api-key`). */
  apiKey?: string;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** Per HTTP attempt, in milliseconds (for a stream: the wait for each chunk). Default 60 000. */
  timeoutMs?: number;
  /** Retries after a failed attempt (408, 409, 429, 5xx, timeouts, dropped connections). Default 3. */
  retries?: number;
  /** Backoff bounds: the first retry waits up to `retryBaseDelayMs` (doubling each time), never more than `retryMaxDelayMs`. Defaults 250 and 10 000. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** The longest `Retry-After` waited out; a server asking for more fails the request. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Aborts every request of this client, in flight or backing off. */
  signal?: AbortSignal;
  /** The fetch implementation. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** The backoff's jitter source (tests pin it). Default `Math.random`. */
  random?: () => number;
}

function integerOption(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) throw new InvalidInputError(`${name} must be an integer of at least ${minimum}, got ${value}`);
  return value;
}

/** The options, checked, as the settings `withRetries` runs on, with the concurrency limit. */
export function remoteHttpSettings(options: RemoteClientOptions): RemoteHttpSettings & { concurrency: number } {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  if (typeof fetchImplementation !== 'function') throw new InvalidInputError('no fetch implementation: pass { fetch }');
  return {
    fetch: fetchImplementation,
    headers: { ...(options.apiKey !== undefined ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
    timeoutMs: integerOption('timeoutMs', options.timeoutMs, 60_000, 1),
    retry: {
      retries: integerOption('retries', options.retries, defaultRetryPolicy.retries, 0),
      baseDelayMs: integerOption('retryBaseDelayMs', options.retryBaseDelayMs, defaultRetryPolicy.baseDelayMs, 0),
      maxDelayMs: integerOption('retryMaxDelayMs', options.retryMaxDelayMs, defaultRetryPolicy.maxDelayMs, 0),
      maxRetryAfterMs: integerOption('maxRetryAfterMs', options.maxRetryAfterMs, defaultRetryPolicy.maxRetryAfterMs, 0),
    },
    concurrency: integerOption('concurrency', options.concurrency, 8, 1),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.random ? { random: options.random } : {}),
  };
}
