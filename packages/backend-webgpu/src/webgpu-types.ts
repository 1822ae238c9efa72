// The WebGPU type declarations (GPUDevice, GPUBuffer, ...) as the `webgpu` package pulls them in
// from `@webgpu/types`. Type-only: nothing is imported at run time. Entries import this file so
// that the declaration build sees the types too.
export type {} from 'webgpu';
