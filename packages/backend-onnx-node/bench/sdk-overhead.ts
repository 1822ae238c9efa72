import type { BackendV1 } from '@reward-lens/spec';
import type { TokenizedPair } from '@reward-lens/core';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { benchDecoderConfig, median, secondsAsync, sideBySide } from '@reward-lens/bench-harness';
import { arithmeticPair, benchProcessRM } from './bench-support.js';

/** The feeds the backend builds for a right-padded batch without a past, built by hand. */
function bareFeeds(pairs: readonly TokenizedPair[]): Record<string, Tensor> {
  const batchSize = pairs.length;
  const sequenceLength = Math.max(...pairs.map((pair) => pair.inputIds.length));
  const ids = new BigInt64Array(batchSize * sequenceLength);
  const mask = new BigInt64Array(batchSize * sequenceLength);
  const positions = new BigInt64Array(batchSize * sequenceLength);
  pairs.forEach((pair, row) => {
    pair.inputIds.forEach((id, column) => {
      ids[row * sequenceLength + column] = BigInt(id);
      mask[row * sequenceLength + column] = 1n;
      positions[row * sequenceLength + column] = BigInt(column);
    });
  });
  const feeds: Record<string, Tensor> = {
    input_ids: new Tensor('int64', ids, [batchSize, sequenceLength]),
    attention_mask: new Tensor('int64', mask, [batchSize, sequenceLength]),
    position_ids: new Tensor('int64', positions, [batchSize, sequenceLength]),
  };
  const emptyPast = [batchSize, benchDecoderConfig.numKvHeads, 0, benchDecoderConfig.headDim];
  for (let layer = 0; layer < benchDecoderConfig.numLayers; layer++) {
    feeds[`past_key_values.${layer}.key`] = new Tensor('float32', new Float32Array(0), emptyPast);
    feeds[`past_key_values.${layer}.value`] = new Tensor('float32', new Float32Array(0), emptyPast);
  }
  return feeds;
}

/**
 * (b) `ProcessRM.stepScores` end to end (tokenize, segment, batch, forward, read) against a bare
 * `session.run` of the same graph on the same tokens, pre-tokenized, fetching the same output.
 */
export async function sdkOverhead(onnx: BackendV1, graph: Uint8Array): Promise<void> {
  const pairs = Array.from({ length: 8 }, (_, index) => arithmeticPair(index + 3, 16));
  const prm = benchProcessRM(onnx);
  const tokenized = pairs.map((pair) => prm.tokenize(pair));
  const session = await InferenceSession.create(graph, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const feeds = bareFeeds(tokenized);
  const {
    a: endToEnd,
    b: bare,
    ratio,
  } = await sideBySide(
    9,
    () => prm.stepScores(pairs),
    () => session.run(feeds, ['scores.value']),
  );
  await session.release();
  const tokenizeTimes: number[] = [];
  for (let repeat = 0; repeat < 5; repeat++) tokenizeTimes.push(await secondsAsync(async () => pairs.map((pair) => prm.tokenize(pair))));
  const tokens = tokenized.reduce((sum, pair) => sum + pair.inputIds.length, 0);
  const longest = Math.max(...tokenized.map((pair) => pair.inputIds.length));
  console.log(`\n(b) SDK overhead: 8 solutions × 16 steps (${tokens} tokens, padded to 8 × ${longest}), onnx-node, medians of 9 alternated pairs`);
  console.log(`  ProcessRM.stepScores end to end  ${(endToEnd * 1000).toFixed(1)} ms`);
  console.log(`  bare session.run, same tokens    ${(bare * 1000).toFixed(1)} ms`);
  console.log(
    `  overhead: ${((ratio - 1) * 100).toFixed(1)}% (median of the pairs' ratios); tokenizing and segmenting alone: ${(median(tokenizeTimes) * 1000).toFixed(1)} ms`,
  );
}
