import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { processBenchAsset } from '../src/asset-paths.js';
import {
  processBenchIds,
  processBenchSha256,
  processBenchSource,
  selectProcessBenchExamples,
  type ProcessBenchExamples,
} from '../src/examples/processbench-selection.js';

/** The shared split: `$REWARD_LENS_SHARED_DATA/processbench/gsm8k.json`, else `../shared/data` beside the repository. */
export function processBenchPath(): string {
  const root = process.env.REWARD_LENS_SHARED_DATA ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
  return `${root.replace(/\/$/, '')}/processbench/gsm8k.json`;
}

/**
 * The selection the app serves: the shipped items read from the shared split, checked against
 * its published digest. Without the file (a clone without ../shared), the app still builds and
 * says why the ProcessBench examples are missing.
 */
export function readProcessBenchExamples(path = processBenchPath()): ProcessBenchExamples {
  const base = { source: processBenchSource, license: 'Apache-2.0', sha256: processBenchSha256 };
  if (!existsSync(path)) return { ...base, items: [], unavailable: `the ProcessBench GSM8K split was not found at build time (looked for ${path})` };
  const bytes = readFileSync(path);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== processBenchSha256) throw new Error(`${path} has sha256 ${digest}, not the published file's ${processBenchSha256}`);
  return { ...base, items: selectProcessBenchExamples(JSON.parse(bytes.toString('utf8'))) };
}

/**
 * A Vite plugin that writes the selection into the build output (and serves it in dev): the
 * repository holds no copy of the data, only which items to take.
 */
export function processBenchExamples(): Plugin {
  let examples: ProcessBenchExamples | undefined;
  const load = () => {
    examples ??= readProcessBenchExamples();
    return `${JSON.stringify(examples)}\n`;
  };
  return {
    name: 'reward-lens-processbench-examples',
    configureServer(server) {
      server.middlewares.use(`/${processBenchAsset}`, (_request, response) => {
        response.setHeader('Content-Type', 'application/json');
        response.end(load());
      });
    },
    generateBundle() {
      const source = load();
      if (examples?.unavailable) this.warn(`${examples.unavailable}: the demo is built without its ${processBenchIds.length} ProcessBench examples`);
      this.emitFile({ type: 'asset', fileName: processBenchAsset, source });
    },
  };
}
