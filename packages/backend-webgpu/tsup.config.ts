import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', register: 'src/register.ts' },
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too: the entries share one copy of each module, as in ESM.
  splitting: true,
  // The bundled declarations lose src/webgpu-types.ts's reference to the WebGPU types (GPUDevice,
  // GPUAdapter, ...): put it back, so that a consumer typechecks with skipLibCheck off. With a
  // banner, register.d.ts loses its `export {}`: the footer keeps every declaration file a module.
  dts: { banner: '/// <reference types="@webgpu/types" />', footer: 'export {};' },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Dawn's Node bindings are imported lazily, and only in Node.
  external: [/^@reward-lens\//, 'webgpu'],
});
