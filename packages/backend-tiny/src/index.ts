export { createTinyBackend, createTinyBackendAsync, tinyBackendCapabilities } from './create-tiny-backend.js';
export { DEFAULT_SHARD_TOKENS as defaultShardTokens } from './gradients/shards.js';
export type { TinyBackendOptions } from './create-tiny-backend.js';
export { tinyBackendRegistration } from './tiny-backend-registration.js';
export { nextTokenLogits } from './next-token-logits.js';
export type { NextTokenStep } from './next-token-logits.js';
export { scalarKernels } from './kernels/kernel-set.js';
export type { AttentionShape, KernelSet } from './kernels/kernel-set.js';
export type { KernelChoice } from './kernels/kernel-choice.js';
