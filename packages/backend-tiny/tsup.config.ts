import { readFile } from 'node:fs/promises';
import { rewardLensBuild } from '../../tsup.shared.js';

/** The browser platform names its worker by its source file; the built one is `tiny-worker.js`. */
const builtWorkerName = {
  name: 'built-worker-name',
  setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: 'ts' }>): void }) {
    build.onLoad({ filter: /platform-browser\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replace("new URL('./tiny-worker.ts', import.meta.url)", "new URL('./tiny-worker.js', import.meta.url)"),
      loader: 'ts',
    }));
  },
};

export default rewardLensBuild(
  {
    index: 'src/index.ts',
    register: 'src/register.ts',
    // The worker thread's code, and the two targets of `#tiny-platform` (package.json "imports"):
    // Node's worker_threads and browsers' Web Workers. Imported at run time, never bundled in.
    'tiny-worker': 'src/tiny-worker.ts',
    'platform-node': 'src/platform-node.ts',
    'platform-browser': 'src/platform-browser.ts',
  },
  {
    dts: { entry: { index: 'src/index.ts', register: 'src/register.ts' } },
    // CommonJS: `import.meta.url` (where the worker file is) from __filename.
    shims: true,
    external: ['#tiny-platform'],
    esbuildPlugins: [builtWorkerName],
  },
);
