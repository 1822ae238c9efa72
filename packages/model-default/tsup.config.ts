import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', browser: 'src/browser.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // import.meta.url locates model/ beside dist/, in the CommonJS build too.
  shims: true,
  external: [/^@reward-lens\//],
});
