import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { bin: 'src/bin.ts', index: 'src/index.ts' },
  format: ['esm'],
  // Types only for the library entry; the bin has no API.
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  // The SDK packages are dependencies resolved at run time, never bundled into the CLI.
  external: [/^@reward-lens\//],
});
