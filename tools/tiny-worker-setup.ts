import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { useBundledTinyWorker } from './bench-harness/src/tiny-worker-bundle.js';

/**
 * Vitest global setup: backend-tiny's worker thread, bundled from source once per test run.
 * Tests run the packages from TypeScript source; a worker thread cannot (Node runs no
 * TypeScript), so the package's Node platform starts this bundle instead, named by
 * `REWARD_LENS_TINY_WORKER` (without it, from source, it goes through tsx: about a second a worker).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const bundled = !process.env.REWARD_LENS_TINY_WORKER;
  const path = await useBundledTinyWorker();
  return async () => {
    if (bundled) await rm(dirname(path), { recursive: true, force: true });
  };
}
