import type { RewardLensError } from '@reward-lens/core';
import { abortableSleep } from './abortable-sleep.js';
import { AttemptFailure } from './attempt-failure.js';
import { RemoteHttpError } from './remote-http-error.js';
import { RemoteResponseError } from './remote-response-error.js';
import { RemoteTimeoutError } from './remote-timeout-error.js';
import { RemoteUnreachableError } from './remote-unreachable-error.js';
import { backoffDelayMs, type RetryPolicy } from './retry-policy.js';

/** How a remote client makes requests: transport, headers, time limit, retries, cancellation. */
export interface RemoteHttpSettings {
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** Per attempt: no answer within this time (for a stream: no chunk) is a timeout, retried. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Aborts waiting, retrying and requests in flight; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Jitter source; injectable so tests can pin it. */
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, with the one retry policy of every remote client: each
 * attempt gets its own time limit (`resetIdle` restarts it, for streams), a failure the attempt
 * marks retryable (`AttemptFailure`: 408/409/429/5xx, a dropped connection, a timeout, a cut
 * stream) is retried after the server's `Retry-After` or an exponential backoff with full jitter,
 * and the last failure becomes a typed error naming `url`: `RemoteHttpError`, `RemoteUnreachableError`,
 * `RemoteTimeoutError` or `RemoteResponseError`, each with its `attempts`. The signal stops it at
 * once, in a request or in a backoff. Only idempotent requests go through here (scoring, completions
 * with a seed or at temperature 0 count as such: a retry at worst draws another sample).
 */
export async function withRetries<Result>(
  url: string,
  settings: RemoteHttpSettings,
  attempt: (signal: AbortSignal, resetIdle: () => void) => Promise<Result>,
): Promise<{ value: Result; attempts: number }> {
  const { signal, retry } = settings;
  for (let attemptIndex = 0; ; attemptIndex++) {
    if (signal?.aborted) throw signal.reason;
    const attempts = attemptIndex + 1;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const resetIdle = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => controller.abort(new AttemptFailure('timeout', `no answer within ${settings.timeoutMs} ms`, { retryable: true })),
        settings.timeoutMs,
      );
    };
    resetIdle();
    let failure: AttemptFailure;
    try {
      return { value: await attempt(controller.signal, resetIdle), attempts };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof AttemptFailure) failure = error;
      else if (controller.signal.aborted && controller.signal.reason instanceof AttemptFailure) failure = controller.signal.reason;
      else throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (!failure.retryable || attemptIndex >= retry.retries) throw finalError(url, failure, attempts, settings);
    if (failure.waitMs !== undefined && failure.waitMs > retry.maxRetryAfterMs) {
      throw new RemoteHttpError(url, failure.status ?? 0, failure.serverMessage, {
        attempts,
        hint: `the server asks to retry after ${Math.ceil(failure.waitMs / 1000)} s, longer than the ${retry.maxRetryAfterMs / 1000} s the client waits`,
      });
    }
    await abortableSleep(failure.waitMs ?? backoffDelayMs(attemptIndex, retry, settings.random), signal);
  }
}

function finalError(url: string, failure: AttemptFailure, attempts: number, settings: RemoteHttpSettings): RewardLensError {
  switch (failure.kind) {
    case 'status':
      return new RemoteHttpError(url, failure.status ?? 0, failure.serverMessage, {
        attempts,
        ...(failure.retryable ? { hint: `after ${attempts} attempts` } : {}),
      });
    case 'network':
      return new RemoteUnreachableError(url, attempts, { cause: failure.cause });
    case 'timeout':
      return new RemoteTimeoutError(url, settings.timeoutMs, attempts);
    case 'response':
      return new RemoteResponseError(url, failure.message, { attempts, ...(failure.cause !== undefined ? { cause: failure.cause } : {}) });
  }
}
