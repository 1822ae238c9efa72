import { expect, vi } from 'vitest';

/**
 * Two evaluations of one module, standing for two copies of a package in one process (the
 * CommonJS build has one per entry; an app can load the ESM and the CommonJS build, or two
 * versions): what process-wide state must survive. Fails if the second load gave the same module.
 *
 * @example
 * const [first, second] = await twoModuleCopies(() => import('./registry.js'));
 */
export async function twoModuleCopies<T>(load: () => Promise<T>): Promise<[T, T]> {
  const first = await load();
  vi.resetModules();
  const second = await load();
  expect(second).not.toBe(first);
  return [first, second];
}
