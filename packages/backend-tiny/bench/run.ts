/** `pnpm --filter @reward-lens/backend-tiny bench`: scalar vs WebAssembly SIMD kernels, side by side (run against source). */
import { benchDecoderConfig, describeMachine } from '@reward-lens/bench-harness';
import { compareForward } from './forward-throughput.js';
import { compareMatmul } from './matmul-throughput.js';

const { hiddenSize, numLayers, numHeads, numKvHeads, intermediateSize } = benchDecoderConfig;
console.log(describeMachine(`V8 ${process.versions.v8}`, `${process.platform}/${process.arch}`, 'single-threaded'));
console.log(`model: hidden ${hiddenSize}, ${numLayers} layers, ${numHeads}/${numKvHeads} heads, intermediate ${intermediateSize}`);
compareMatmul();
await compareForward();
