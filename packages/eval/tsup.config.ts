import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', node: 'src/node.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // import.meta.url (used to find uPlot in node_modules) in the CommonJS build too.
  shims: true,
  external: [/^@reward-lens\//, 'uplot'],
});
