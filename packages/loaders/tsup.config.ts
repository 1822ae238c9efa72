import { defineConfig } from 'tsup';

// The package's entries (exports), each with its types.
const entries = { index: 'src/index.ts', node: 'src/node.ts' };

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too, so that both entries use one copy of each module.
  splitting: true,
  dts: { entry: entries },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: [/^@reward-lens\//],
});
