import { defineConfig } from 'tsup';

// The package's entries (exports), each with its types.
const entries = { index: 'src/index.ts', 'internal/index': 'src/internal/index.ts' };

export default defineConfig({
  entry: entries,
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too, so that both entries use one copy of each class (`instanceof`, the errors).
  splitting: true,
  dts: { entry: entries },
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
