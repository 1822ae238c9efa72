import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', register: 'src/register.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: ['@reward-lens/core', '@reward-lens/onnx-backend-common', '@reward-lens/onnx-export', 'onnxruntime-web'],
});
