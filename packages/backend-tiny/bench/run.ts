/** `pnpm --filter @reward-lens/backend-tiny bench`: scalar vs WebAssembly SIMD kernels, side by side (run against source). */
import { benchConfig, compareForward } from './forward-throughput.js';
import { compareMatmul } from './matmul-throughput.js';
import { describeMachine } from './measure.js';

const { hiddenSize, numLayers, numHeads, numKvHeads, intermediateSize } = benchConfig;
console.log(describeMachine());
console.log(`model: hidden ${hiddenSize}, ${numLayers} layers, ${numHeads}/${numKvHeads} heads, intermediate ${intermediateSize}`);
compareMatmul();
await compareForward();
