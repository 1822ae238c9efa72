import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * backend-tiny's worker thread bundled from source into a temporary folder, and named by
 * `REWARD_LENS_TINY_WORKER`, where the package looks for it when it runs from TypeScript source
 * (as the tests and benchmarks do): a worker then starts in milliseconds, as the built package's
 * does, instead of compiling the source through tsx. Returns the bundle's path.
 */
export async function useBundledTinyWorker(): Promise<string> {
  if (process.env.REWARD_LENS_TINY_WORKER) return process.env.REWARD_LENS_TINY_WORKER;
  const folder = await mkdtemp(join(tmpdir(), 'reward-lens-tiny-worker-'));
  const outfile = join(folder, 'tiny-worker.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../../packages/backend-tiny/src/tiny-worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@reward-lens/source', 'node', 'import'],
    outfile,
    logLevel: 'warning',
  });
  process.env.REWARD_LENS_TINY_WORKER = outfile;
  return outfile;
}
