/** `pnpm --filter @reward-lens/backend-tiny bench`: scalar vs WebAssembly SIMD kernels, and 1 against 2, 4, ... threads, side by side (run against source). */
import { availableParallelism } from 'node:os';
import { benchDecoderConfig, describeMachine, useBundledTinyWorker } from '@reward-lens/bench-harness';
import { compareActivationBits } from './activation-bits.js';
import { compareDtypeForward } from './dtype-forward.js';
import { compareForward } from './forward-throughput.js';
import { compareInt8Matmul } from './int8-matmul-throughput.js';
import { compareLoadMemory } from './load-memory.js';
import { compareMatmul } from './matmul-throughput.js';
import { compareThreadMemory } from './thread-memory.js';
import { compareThreads } from './thread-throughput.js';

await useBundledTinyWorker();
const { hiddenSize, numLayers, numHeads, numKvHeads, intermediateSize } = benchDecoderConfig;
console.log(describeMachine(`V8 ${process.versions.v8}`, `${process.platform}/${process.arch}`, `${availableParallelism()} threads available`));
console.log(
  `model: hidden ${hiddenSize}, ${numLayers} layers, ${numHeads}/${numKvHeads} heads, intermediate ${intermediateSize} (kernel benches on one thread)`,
);
compareMatmul();
compareInt8Matmul();
compareActivationBits();
await compareForward();
await compareDtypeForward();
console.log('\nthe 42M model: hidden 512, 8 layers, 8 heads, intermediate 1376, 32,000-token vocabulary, tied embeddings');
await compareThreads();
compareThreadMemory();
await compareLoadMemory();
