import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', node: 'src/node.ts' },
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too: the entries share one copy of each module, as in ESM.
  splitting: true,
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: [/^@reward-lens\//, 'onnx-proto'],
});
