import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Checks `Authorization: Bearer <key>` against the server's key, in constant time (the digests
 * compared have equal length whatever was sent). A missing or wrong key is a 401.
 */
export function checkBearer(request: IncomingMessage, apiKey: string): void {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match || !timingSafeEqual(digest(match[1]!), digest(apiKey))) {
    throw new HttpError(401, 'Unauthorized', 'a valid API key is required: send Authorization: Bearer <key>', { 'www-authenticate': 'Bearer' });
  }
}
