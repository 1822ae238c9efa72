import { readFileSync } from 'node:fs';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createByteBpeTokenizer, createRandomDecoder, defineDecoderConfig, mathShepherdRecipe, ProcessRM } from '@reward-lens/core';
import { fromVllm } from '@reward-lens/remote';
import { sharedDataPath, smallLlamaFields } from '@reward-lens/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServers, serve } from '../test/support/serve-test-server.js';
import { realQwenPrm } from '../test/support/test-models.js';

const items = (JSON.parse(readFileSync(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as { problem: string; steps: string[] }[]).slice(0, 6);
const pairs = items.map((item) => ({ problem: item.problem, steps: item.steps }));

describe('fromVllm pointed at reward-lens serve (Qwen tokenizer, qwen2.5-math-prm)', () => {
  let local: ProcessRM;
  let url: string;
  beforeAll(async () => {
    local = realQwenPrm();
    url = await serve(local, { modelName: 'Qwen/Qwen2.5-Math-PRM-7B' });
  });
  afterAll(async () => {
    await closeServers();
    await local.dispose();
  });

  it('gives exactly the local step scores on ProcessBench items, with the server and model in the notes', async () => {
    const remote = await fromVllm(url, { model: 'Qwen/Qwen2.5-Math-PRM-7B', recipe: 'qwen2.5-math-prm', concurrency: 4 });
    const [fromServer, fromHere] = await Promise.all([remote.stepScores(pairs), local.stepScores(pairs)]);
    expect(fromServer.value.curves).toEqual(fromHere.value.curves);
    const scores = fromHere.value.curves.flatMap((curve) => Array.from(curve));
    expect(scores.every((score) => score > 0 && score < 1)).toBe(true);
    expect(new Set(scores).size).toBe(scores.length);
    expect(fromServer.value.stepCounts).toEqual(items.map((item) => item.steps.length));
    expect(fromServer.value.steps.map((steps) => steps.map((step) => step.text))).toEqual(pairs.map((pair) => pair.steps));
    expect(fromServer.notes[0]).toContain(`remote engine: vLLM at ${url}, model "Qwen/Qwen2.5-Math-PRM-7B" (max_model_len 1024)`);
    const outcomes = await remote.score(pairs);
    expect(outcomes.value.values).toEqual(Float32Array.from(fromHere.value.curves, (curve) => curve.at(-1)!));
  });

  it('sends token ids with the tokenizer, and then counts tokens as the model does', async () => {
    const remote = await fromVllm(url, { model: 'Qwen/Qwen2.5-Math-PRM-7B', recipe: 'qwen2.5-math-prm', tokenizer: local.tokenizer });
    const [fromServer, fromHere] = await Promise.all([remote.stepScores(pairs.slice(0, 2)), local.stepScores(pairs.slice(0, 2))]);
    expect(fromServer.value.curves).toEqual(fromHere.value.curves);
    expect(fromServer.value.meta.map((meta) => meta.tokenCount)).toEqual(fromHere.value.meta.map((meta) => meta.tokenCount));
    expect(fromServer.value.steps[0]!.map((step) => step.readTokenIndex)).toEqual(fromHere.value.steps[0]!.map((step) => step.readTokenIndex));
  });
});

describe('fromVllm pointed at reward-lens serve (math-shepherd: [P(+), P(-)] rows from returned token ids)', () => {
  it('gives exactly the local step scores', async () => {
    const tokenizer = createByteBpeTokenizer({ addedTokens: [' ки'] });
    const config = defineDecoderConfig({
      ...smallLlamaFields,
      architecture: 'mistral',
      vocabSize: tokenizer.vocabSize,
      maxPositions: 512,
      heads: mathShepherdRecipe.heads,
    });
    const local = ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 9, config })), tokenizer, { recipe: mathShepherdRecipe });
    const url = await serve(local, { modelName: 'math-shepherd' });
    try {
      const remote = await fromVllm(url, { model: 'math-shepherd', recipe: 'math-shepherd' });
      const shepherdPairs = [
        { problem: 'What is 2+3*4?', steps: ['3*4=12.', '2+12=14.', 'The answer is 14.'] },
        { problem: 'Janet has 3 apples and buys 2 more.', solution: 'She has 3+2=5 apples.\nThe answer is 5.' },
      ];
      const [fromServer, fromHere] = await Promise.all([remote.stepScores(shepherdPairs), local.stepScores(shepherdPairs)]);
      expect(fromServer.value.curves).toEqual(fromHere.value.curves);
      expect(fromHere.value.curves.flatMap((curve) => Array.from(curve)).every((score) => score > 0 && score < 1)).toBe(true);
    } finally {
      await closeServers();
    }
  });
});
