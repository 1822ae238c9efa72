import { HttpError } from '../http/http-error.js';

function tooManyTokens(tokens: number, limit: number, partial: boolean): HttpError {
  return new HttpError(
    413,
    'RequestTooLarge',
    partial
      ? `the request holds more than ${limit} tokens (${tokens} in the records counted before stopping); the limit is ${limit} (the server's --max-request-tokens): split it`
      : `the request holds ${tokens} tokens; the limit is ${limit} (the server's --max-request-tokens): split it`,
  );
}

/** How long the preparation of one request may hold the event loop before it lets others run. */
const sliceMs = 4;

/**
 * Prepares a request's entries one by one (tokenizing them), counting tokens as it goes: it stops
 * with the 413 as soon as the count passes `limit`, and yields to the event loop every few
 * milliseconds, so a huge request neither costs its whole tokenization before it is refused nor
 * holds up `/health` and other requests meanwhile. `signal` (the request's timeout, a client that
 * hung up) stops it too.
 */
export async function prepareWithinTokens<Value, Prepared>(
  values: readonly Value[],
  prepare: (value: Value) => Prepared,
  tokensOf: (prepared: Prepared) => number,
  limit: number,
  signal: AbortSignal,
): Promise<{ prepared: Prepared[]; tokens: number }> {
  const prepared: Prepared[] = [];
  let tokens = 0;
  let sliceStart = performance.now();
  for (const value of values) {
    const entry = prepare(value);
    tokens += tokensOf(entry);
    if (tokens > limit) throw tooManyTokens(tokens, limit, prepared.length + 1 < values.length);
    prepared.push(entry);
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  return { prepared, tokens };
}
