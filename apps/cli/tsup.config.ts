import { defineConfig } from 'tsup';

const shared = {
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  // The SDK packages are dependencies resolved at run time, never bundled into the CLI.
  external: [/^@reward-lens\//],
} as const;

export default defineConfig([
  // The library entry (`main`), for embedding: ESM, CJS and types.
  { ...shared, entry: { index: 'src/index.ts' }, format: ['esm', 'cjs'], dts: true, clean: true },
  // The `reward-lens` binary: ESM only, no API.
  { ...shared, entry: { bin: 'src/bin.ts' }, format: ['esm'] },
]);
