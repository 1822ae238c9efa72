import { isLoopbackHost } from './is-loopback-host.js';
import { UnsafeBindError } from './unsafe-bind-error.js';

/**
 * Whether the server may listen on `host`: loopback always; another address with an API key, or
 * without one only when explicitly allowed, and then with a warning to print (returned).
 */
export function checkBindSafety(host: string, options: { apiKey: string | undefined; allowUnauthenticatedRemote: boolean }): string | undefined {
  if (isLoopbackHost(host) || options.apiKey !== undefined) return undefined;
  if (!options.allowUnauthenticatedRemote) throw new UnsafeBindError(host);
  return `reward-lens serve: WARNING: listening on ${host} WITHOUT an API key: anyone who can reach this address can use the model and read its metrics`;
}
