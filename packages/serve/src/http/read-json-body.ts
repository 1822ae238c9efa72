import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'RequestTooLarge', `the request body is larger than ${limit} bytes (the server's --max-body-bytes)`, { connection: 'close' });
}

/**
 * The request's JSON body, read up to `maxBytes`: a larger body (declared or sent) is a 413, a
 * body that is not JSON a 400 with the parser's message. A refused body is not read further; the
 * connection closes after the answer.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks, length).toString('utf8');
  if (text.trim() === '') throw new HttpError(400, 'BadRequestError', 'the request body is empty; expected JSON');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, 'BadRequestError', `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
