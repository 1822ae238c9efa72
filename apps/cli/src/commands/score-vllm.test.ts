import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createByteBpeTokenizer, createRandomDecoder, defineDecoderConfig, ProcessRM, qwen25MathPrmRecipe } from '@reward-lens/core';
import { createRewardServer, type RewardServer } from '@reward-lens/serve';
import { smallLlamaFields } from '@reward-lens/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

/** Qwen2.5-Math-PRM's reading on a small random Qwen2 model, with `<extra_0>` added to the byte-BPE tokenizer. */
function qwenRecipePrm(): ProcessRM {
  const tokenizer = createByteBpeTokenizer({ addedTokens: ['<extra_0>'] });
  // The small Llama of the tests with Qwen2's differences: rope base 1e6, RMSNorm epsilon 1e-6, biased attention projections.
  const config = defineDecoderConfig({
    ...smallLlamaFields,
    architecture: 'qwen2',
    ropeTheta: 1_000_000,
    rmsNormEps: 1e-6,
    attentionBias: true,
    vocabSize: tokenizer.vocabSize,
    maxPositions: 512,
    heads: qwen25MathPrmRecipe.heads,
  });
  return ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 4, config })), tokenizer, { recipe: qwen25MathPrmRecipe });
}

/** A loopback port nothing listens on (one that was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const folder = mkdtempSync(join(tmpdir(), 'reward-lens-score-vllm-'));
let prm: ProcessRM;
let server: RewardServer;
let url: string;
beforeAll(async () => {
  prm = qwenRecipePrm();
  server = createRewardServer(prm, { port: 0, modelName: 'qwen-prm', log: () => {} });
  url = (await server.listen()).url;
});
afterAll(async () => {
  await server.close();
  await prm.dispose();
  rmSync(folder, { recursive: true, force: true });
});

const records = [
  { problem: 'Compute (2+2)*3.', solution: '2+2=4.\n\n4*3=12.\n\nThe answer is 12.' },
  { problem: 'What is 7-5?', steps: ['7-5=2.', 'The answer is 2.'] },
];

describe('reward-lens score --vllm (the server here is reward-lens serve, speaking vLLM /pooling)', () => {
  it('prints the local step scores, with the server and model named in the notes', async () => {
    const file = join(folder, 'records.jsonl');
    writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const result = await runMain(['score', '--vllm', url, '--vllm-model', 'qwen-prm', '--recipe', 'qwen2.5-math-prm', '--file', file, '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const lines = jsonLines(result.stdout);
    const local = await prm.stepScores(records);
    lines.forEach((line, index) => {
      expect(line.stepScores).toEqual(Array.from(local.value.curves[index]!));
      expect(line.backend).toBe('vllm');
      expect((line.notes as string[])[0]).toContain(`vLLM at ${url}, model "qwen-prm"`);
    });
    expect((lines[0]!.stepScores as number[]).length).toBe(3);
  });

  it('says what is wrong: a model the server does not serve, a server that is not there, flags that do not mix', async () => {
    const wrong = await runMain(['score', '--vllm', url, '--vllm-model', 'nope', '--recipe', 'qwen2.5-math-prm', '--problem', 'p', '--solution', 'a']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toBe(`reward-lens: REMOTE_MODEL_NOT_FOUND: ${url} does not serve model "nope" (it serves: "qwen-prm")\n`);
    const gone = await runMain([
      'score',
      '--vllm',
      `http://127.0.0.1:${await closedPort()}`,
      '--vllm-model',
      'qwen-prm',
      '--recipe',
      'qwen2.5-math-prm',
      '--problem',
      'p',
      '--solution',
      'a',
    ]);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(
      /^reward-lens: REMOTE_UNREACHABLE: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models \(ECONNREFUSED.*\) after 4 attempts; is the server running\?\n$/,
    );
    expect((await runMain(['score', '--vllm', url, '--recipe', 'qwen2.5-math-prm', '--problem', 'p', '--solution', 'a'])).stderr).toContain(
      '--vllm needs --vllm-model',
    );
    expect((await runMain(['score', '--vllm', url, '--vllm-model', 'qwen-prm', '--problem', 'p', '--solution', 'a'])).stderr).toContain(
      '--vllm needs --recipe',
    );
    expect(
      (await runMain(['score', '--vllm', url, '--vllm-model', 'qwen-prm', '--recipe', 'qwen2.5-math-prm', '--model', 'x', '--problem', 'p', '--solution', 'a']))
        .stderr,
    ).toContain('--model chooses a local model; --vllm scores on the server');
  });
});
