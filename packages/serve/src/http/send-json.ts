import type { ServerResponse } from 'node:http';

/** Writes a JSON answer (a value, or JSON text already made); `Connection: close` while the server shuts down. */
export function sendJson(response: ServerResponse, status: number, body: unknown, options: { headers?: Record<string, string>; closing?: boolean } = {}): void {
  if (response.headersSent) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(options.closing ? { connection: 'close' } : {}),
    ...options.headers,
  });
  response.end(text);
}
