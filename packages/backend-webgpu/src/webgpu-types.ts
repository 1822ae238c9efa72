/// <reference types="@webgpu/types" />
// The WebGPU type declarations (GPUDevice, GPUBuffer, ...). Type-only: nothing is imported at run
// time. The entries and the registration import this file, so that every program that reaches
// this package's sources (a dependent's typecheck, the declaration build) sees the types.
export {};
