import { describe, expect, it } from 'vitest';
import { checkBindSafety } from './bind-safety.js';
import { isLoopbackHost } from './is-loopback-host.js';
import { UnsafeBindError } from './unsafe-bind-error.js';

describe('listening safely', () => {
  it('tells loopback addresses from the others', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.4', '10.0.0.1', 'example.com', '::ffff:10.0.0.1', '128.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('refuses a remote address without an API key unless explicitly allowed, and then warns', () => {
    expect(checkBindSafety('127.0.0.1', { apiKey: undefined, allowUnauthenticatedRemote: false })).toBeUndefined();
    expect(checkBindSafety('0.0.0.0', { apiKey: 'secret', allowUnauthenticatedRemote: false })).toBeUndefined();
    const error = (() => {
      try {
        return checkBindSafety('0.0.0.0', { apiKey: undefined, allowUnauthenticatedRemote: false });
      } catch (caught) {
        return caught;
      }
    })();
    expect(UnsafeBindError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('refusing to listen on 0.0.0.0 without an API key');
    expect(checkBindSafety('0.0.0.0', { apiKey: undefined, allowUnauthenticatedRemote: true })).toMatch(/WARNING: listening on 0\.0\.0\.0 WITHOUT an API key/);
  });
});
