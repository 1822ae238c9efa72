import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { processBenchExamples } from './build/processbench-examples.js';

// An outside app's build: the SDK's packages through their published entry points (their dist),
// no source conditions. Relative base: the built folder works from any path.
export default defineConfig({
  base: './',
  plugins: [processBenchExamples()],
  resolve: { alias: { 'onnxruntime-web/webgpu': fileURLToPath(new URL('./build/no-onnxruntime-webgpu.ts', import.meta.url)) } },
  // The dev server serves onnxruntime-web from node_modules with its .wasm beside it (see backend-onnx-web's README).
  optimizeDeps: { exclude: ['onnxruntime-web'] },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
});
