import { HttpError } from '../http/http-error.js';

/** A request with more tokens than the server takes at once is refused whole, before any work. */
export function checkRequestTokens(tokens: number, limit: number): void {
  if (tokens > limit) {
    throw new HttpError(413, 'RequestTooLarge', `the request holds ${tokens} tokens; the limit is ${limit} (the server's --max-request-tokens): split it`);
  }
}
