/** `pnpm --filter @reward-lens/search bench`: incremental prefix scoring vs re-scoring in beam search, side by side (run against source). */
import { benchDecoderConfig, describeMachine } from '@reward-lens/bench-harness';
import { compareBeamScoring } from './beam-scoring.js';

const { hiddenSize, numLayers, numHeads, numKvHeads, intermediateSize } = benchDecoderConfig;
console.log(describeMachine(`V8 ${process.versions.v8}`, `${process.platform}/${process.arch}`, 'backend-tiny, single-threaded'));
console.log(`PRM: hidden ${hiddenSize}, ${numLayers} layers, ${numHeads}/${numKvHeads} heads, intermediate ${intermediateSize}, random weights`);
await compareBeamScoring(benchDecoderConfig, 5);
