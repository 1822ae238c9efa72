import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Vitest global setup: backend-tiny's worker thread, bundled from source once per test run.
 * Tests run the packages from TypeScript source; a worker thread cannot (Node runs no
 * TypeScript), so the package's Node platform starts this bundle instead, named by
 * `REWARD_LENS_TINY_WORKER` (without it, from source, it goes through tsx: about a second a worker).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'reward-lens-tiny-worker-'));
  const outfile = join(folder, 'tiny-worker.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../packages/backend-tiny/src/tiny-worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@reward-lens/source', 'node', 'import'],
    outfile,
    logLevel: 'warning',
  });
  process.env.REWARD_LENS_TINY_WORKER = outfile;
  return () => rm(folder, { recursive: true, force: true });
}
