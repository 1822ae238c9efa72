import { defineConfig } from 'tsup';

const shared = {
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  // The SDK packages are dependencies resolved at run time, never bundled into the CLI.
  external: [/^@reward-lens\//],
  // `import.meta.url` (the package's version, its files) also in the CommonJS build.
  shims: true,
} as const;

export default defineConfig([
  // The library entry (`main`), for embedding: ESM, CJS and types. The types use Node's streams:
  // the reference asks for @types/node in a consumer's program, as any Node library's types do
  // (not a dependency: that would pull the newest @types/node into every user's tree).
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: { banner: '/// <reference types="node" />' },
    clean: true,
  },
  // The `reward-lens` binary: ESM only, no API.
  { ...shared, entry: { bin: 'src/bin.ts' }, format: ['esm'] },
]);
