import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild(
  { index: 'src/index.ts', register: 'src/register.ts' },
  {
    // The bundled declarations lose src/webgpu-types.ts's reference to the WebGPU types (GPUDevice,
    // GPUAdapter, ...): put it back, so that a consumer typechecks with skipLibCheck off. With a
    // banner, register.d.ts loses its `export {}`: the footer keeps every declaration file a module.
    dts: { banner: '/// <reference types="@webgpu/types" />', footer: 'export {};' },
    // Dawn's Node bindings are imported lazily, and only in Node.
    external: ['webgpu'],
  },
);
