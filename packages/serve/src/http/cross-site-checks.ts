import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../is-loopback-host.js';
import { HttpError } from './http-error.js';

/**
 * The `Host` a request names, without its port (`[::1]:8000` → `[::1]`), or undefined when it is
 * missing or not a host name.
 */
function requestHostname(request: IncomingMessage): string | undefined {
  const host = request.headers.host;
  if (host === undefined || host === '') return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * A keyless server is reachable by any page the user's browser opens: a cross-site POST of a
 * "simple" body reaches it, and DNS rebinding lets a page read the answers under its own host
 * name. So without an API key only loopback host names are answered (`127.0.0.1`, `[::1]`,
 * `localhost`, any port): 403 otherwise. A server deliberately open to the network without a key
 * (`allowUnauthenticatedRemote`) answers any host.
 */
export function checkHost(request: IncomingMessage): void {
  const hostname = requestHostname(request);
  if (hostname === undefined || !isLoopbackHost(hostname)) {
    throw new HttpError(
      403,
      'ForbiddenHost',
      `Host ${JSON.stringify(request.headers.host ?? '')} is not a loopback name; a server without an API key answers only 127.0.0.1, [::1] and localhost`,
    );
  }
}

/**
 * A request body must be declared JSON (`application/json`, or a `+json` type): a `text/plain` or
 * form body is what a cross-site page can send without a preflight. 415 otherwise.
 */
export function checkJsonContentType(request: IncomingMessage): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return;
  throw new HttpError(
    415,
    'UnsupportedMediaType',
    `the request body must be JSON with Content-Type: application/json, got ${type === '' ? 'no Content-Type' : JSON.stringify(type)}`,
  );
}
