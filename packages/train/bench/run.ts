/** `pnpm --filter @reward-lens/train bench`: training on backend-tiny against its forward pass and against PyTorch, side by side (run against source). */
import { availableParallelism } from 'node:os';
import { describeMachine, useBundledTinyWorker } from '@reward-lens/bench-harness';
import { compareTraining, config } from './train-step.js';

await useBundledTinyWorker();
console.log(describeMachine(`V8 ${process.versions.v8}`, `${process.platform}/${process.arch}`, `${availableParallelism()} threads available`));
console.log(
  `model: hidden ${config.hiddenSize}, ${config.numLayers} layers, ${config.numHeads}/${config.numKvHeads} heads, intermediate ${config.intermediateSize}, vocabulary ${config.vocabSize}, a 2-class step head`,
);
await compareTraining();
