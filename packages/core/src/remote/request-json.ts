import { abortableSleep } from './abortable-sleep.js';
import { RemoteHttpError } from './remote-http-error.js';
import { RemoteResponseError } from './remote-response-error.js';
import { RemoteTimeoutError } from './remote-timeout-error.js';
import { RemoteUnreachableError } from './remote-unreachable-error.js';
import { backoffDelayMs, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry-policy.js';
import { errorMessageOf } from './vllm-pooling-protocol.js';

/** How requests to a remote engine are made: transport, headers, time limit, retries, cancellation. */
export interface RemoteHttpSettings {
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** Per attempt: no complete answer within this time is a {@link RemoteTimeoutError}. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Aborts waiting, retrying and requests in flight; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Jitter source; injectable so tests can pin it. */
  random?: () => number;
}

type Attempt = { kind: 'answer'; status: number; body: unknown; retryAfter: string | null } | { kind: 'network'; error: unknown };

async function attempt(url: string, init: { method: 'GET' | 'POST'; body?: string }, settings: RemoteHttpSettings): Promise<Attempt> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(settings.signal!.reason);
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  try {
    const response = await settings.fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...settings.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal: controller.signal,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's HTML page, say): kept as text for the error message.
    }
    return { kind: 'answer', status: response.status, body, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    if (timedOut) throw new RemoteTimeoutError(url, settings.timeoutMs);
    return { kind: 'network', error };
  } finally {
    clearTimeout(timer);
    settings.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * One JSON request with retries: connection failures and 429/503 answers are retried with
 * exponential backoff and full jitter, or after the server's Retry-After when it gives one (a
 * Retry-After longer than the policy's longest delay is not waited for). Scoring requests are
 * idempotent, so a retry is always safe. Other HTTP errors throw {@link RemoteHttpError} with the
 * server's message; a body that is not JSON throws {@link RemoteResponseError}.
 */
export async function requestJson(url: string, init: { method: 'GET' | 'POST'; body?: string }, settings: RemoteHttpSettings): Promise<unknown> {
  for (let attemptIndex = 0; ; attemptIndex++) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    const result = await attempt(url, init, settings);
    const retriesLeft = attemptIndex < settings.retry.retries;
    if (result.kind === 'network') {
      if (!retriesLeft) throw new RemoteUnreachableError(url, attemptIndex + 1, { cause: result.error });
      await abortableSleep(backoffDelayMs(attemptIndex, settings.retry, settings.random), settings.signal);
      continue;
    }
    if (result.status >= 200 && result.status < 300) {
      if (typeof result.body === 'string' || result.body === undefined) {
        throw new RemoteResponseError(url, `HTTP ${result.status} with a body that is not JSON: ${JSON.stringify(String(result.body ?? '').slice(0, 200))}`);
      }
      return result.body;
    }
    const message = errorMessageOf(result.body);
    if (isRetryableStatus(result.status) && retriesLeft) {
      const retryAfter = parseRetryAfter(result.retryAfter, Date.now());
      if (retryAfter !== undefined && retryAfter > settings.retry.maxDelayMs) {
        throw new RemoteHttpError(url, result.status, message, {
          hint: `the server asks to retry after ${Math.ceil(retryAfter / 1000)} s, longer than the client waits`,
        });
      }
      await abortableSleep(retryAfter ?? backoffDelayMs(attemptIndex, settings.retry, settings.random), settings.signal);
      continue;
    }
    throw new RemoteHttpError(url, result.status, message, isRetryableStatus(result.status) ? { hint: `after ${attemptIndex + 1} attempts` } : undefined);
  }
}
