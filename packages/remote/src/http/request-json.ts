import { AttemptFailure } from './attempt-failure.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';
import { serverErrorMessage } from './server-error-message.js';
import { type RemoteHttpSettings, withRetries } from './with-retries.js';

/**
 * One HTTP exchange of an attempt: the response when its status is 2xx; else an `AttemptFailure`
 * with the server's message, retryable for 408/409/429/5xx (with the server's `Retry-After`), or
 * for a connection that failed.
 */
export async function send(
  url: string,
  init: { method: 'GET' | 'POST'; body?: string; accept?: string },
  settings: Pick<RemoteHttpSettings, 'fetch' | 'headers'>,
  signal: AbortSignal,
): Promise<Response> {
  let response: Response;
  try {
    response = await settings.fetch(url, {
      method: init.method,
      headers: {
        accept: init.accept ?? 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...settings.headers,
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new AttemptFailure('network', `connection failed (${error instanceof Error ? error.message : String(error)})`, { retryable: true, cause: error });
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page, say): the text is the message.
  }
  const serverMessage = serverErrorMessage(body);
  const waitMs = parseRetryAfter(response.headers, Date.now());
  throw new AttemptFailure('status', `HTTP ${response.status}${serverMessage ? `: ${serverMessage}` : ''}`, {
    retryable: isRetryableStatus(response.status),
    status: response.status,
    ...(serverMessage !== undefined ? { serverMessage } : {}),
    ...(waitMs !== undefined ? { waitMs } : {}),
  });
}

/** A 2xx response's JSON body. A body cut off is retried; a body that is not JSON is not. */
export async function readJsonBody(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (error instanceof AttemptFailure) throw error; // the attempt's time limit
    throw new AttemptFailure('response', `the response broke off (${error instanceof Error ? error.message : String(error)})`, {
      retryable: true,
      cause: error,
    });
  }
  try {
    if (text === '') throw new SyntaxError('empty body');
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AttemptFailure('response', `HTTP ${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 200))}`, {
      retryable: false,
      cause: error,
    });
  }
}

/**
 * One JSON request with the remote clients' retry policy (`withRetries`). Scoring and listing
 * models are idempotent, so a retry is always safe.
 */
export async function requestJson(url: string, init: { method: 'GET' | 'POST'; body?: string }, settings: RemoteHttpSettings): Promise<unknown> {
  const { value } = await withRetries(url, settings, async (signal) => readJsonBody(await send(url, init, settings, signal)));
  return value;
}
