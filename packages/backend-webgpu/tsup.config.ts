import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', register: 'src/register.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Dawn's Node bindings are imported lazily, and only in Node.
  external: ['@reward-lens/core', 'webgpu'],
});
