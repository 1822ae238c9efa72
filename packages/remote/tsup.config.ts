import { defineConfig } from 'tsup';

// The package's entries (exports), each with its types.
const entries = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  splitting: true,
  dts: { entry: entries },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: [/^@reward-lens\//],
});
