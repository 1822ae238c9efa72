import { defineConfig } from 'tsup';

// The package's entries (exports), each with its types.
const publicEntries = {
  index: 'src/index.ts',
  node: 'src/node.ts',
  'testing/index': 'src/testing/index.ts',
};

export default defineConfig({
  entry: {
    ...publicEntries,
    // The two targets of `#pretrained-folder` (package.json "imports"): Node's folder reader, and
    // what a browser bundle gets instead. Imported by the built code at run time, never bundled in.
    'pretrained-folder': 'src/process-rm/pretrained-folder.ts',
    'pretrained-folder-unavailable': 'src/process-rm/pretrained-folder-unavailable.ts',
  },
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too, so that every entry of the CommonJS build uses one copy of
  // each module (one `ModelLoadError` class for `instanceof`, as in the ESM build).
  splitting: true,
  dts: { entry: publicEntries },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: [/^@reward-lens\//, 'vitest', '#pretrained-folder'],
});
