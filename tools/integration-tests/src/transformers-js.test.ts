import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { AutoModelForCausalLM, env, type PreTrainedModel, Tensor } from '@huggingface/transformers';
import { createOnnxNodeBackend } from '@reward-lens/backend-onnx-node';
import { main } from '@reward-lens/cli';
import { createHfTokenizer, generate } from '@reward-lens/core';
import { expectClose } from '@reward-lens/core/testing';
import { sharedDataPath } from '@reward-lens/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The folder `reward-lens export onnx` writes is the Hugging Face hub layout: transformers.js, an
 * independent client, loads it offline as it would a hub model, and agrees with reward-lens on
 * stories260K (converted from llama2.c's files with `reward-lens convert llama2c`).
 */
const root = await mkdtemp(join(tmpdir(), 'reward-lens-transformers-js-'));
const modelId = 'stories260k';
const folder = join(root, modelId);
afterAll(() => rm(root, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<string> {
  let errors = '';
  let printed = '';
  const sink = (write: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        write(String(chunk));
        done();
      },
    });
  const exitCode = await main(argv, { stdin: Readable.from([]), stdout: sink((text) => (printed += text)), stderr: sink((text) => (errors += text)) });
  expect(errors).toBe('');
  expect(exitCode).toBe(0);
  return printed;
}

let model: PreTrainedModel;
beforeAll(async () => {
  await cli(['convert', 'llama2c', sharedDataPath('stories260k/stories260K.bin'), sharedDataPath('stories260k/tok512.bin'), join(root, 'converted')]);
  await cli(['export', 'onnx', join(root, 'converted'), folder]);
  env.allowRemoteModels = false;
  env.localModelPath = root;
  model = await AutoModelForCausalLM.from_pretrained(modelId, { dtype: 'fp32', device: 'cpu', session_options: { intraOpNumThreads: 1 } });
});
afterAll(() => model?.dispose());

describe('transformers.js loads an exported folder and agrees with reward-lens (stories260K)', () => {
  const ids = [1, 403, 407, 261, 378, 306, 300, 262, 430, 280, 322, 260, 442, 300, 265];

  it('gives the same logits at every position as reward-lens reads from the same folder', async () => {
    const length = ids.length;
    const output = await model({
      input_ids: new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, length]),
      attention_mask: new Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]),
    });
    const theirs = output.logits as Tensor;
    expect(theirs.dims).toEqual([1, length, 512]);
    // reward-lens on the read-positions graph the folder names (what fromPretrained and the CLI run).
    const backend = await createOnnxNodeBackend(join(folder, 'onnx', 'model_read_positions.onnx'), { intraOpThreads: 1 });
    try {
      const positions = [Array.from({ length }, (_, index) => index)];
      const { reads } = await backend.doForward({
        batchSize: 1,
        sequenceLength: length,
        inputIds: Int32Array.from(ids),
        attentionMask: new Uint8Array(length).fill(1),
        reads: [{ kind: 'head', head: 'lm', positions }],
      });
      expectClose(reads[0]!.values[0]!, theirs.data as Float32Array, 1e-4, 'logits, transformers.js against reward-lens');
    } finally {
      await backend.dispose();
    }
  });

  it("greedy from BOS: transformers.js and reward-lens give the same tokens, run.c's text, and both end the story at BOS", async () => {
    const greedy200 = await readFile(sharedDataPath('stories260k/greedy-200.txt'), 'utf8');
    const generated = (await model.generate({
      input_ids: new Tensor('int64', BigInt64Array.of(1n), [1, 1]),
      attention_mask: new Tensor('int64', BigInt64Array.of(1n), [1, 1]),
      max_new_tokens: 400,
      do_sample: false,
    })) as Tensor;
    const theirs = Array.from(generated.data as BigInt64Array, Number).slice(1);
    const configJson = JSON.parse(await readFile(join(folder, 'generation_config.json'), 'utf8')) as { eos_token_id: number[] };
    expect(configJson.eos_token_id).toEqual([2, 1]);

    const tokenizer = createHfTokenizer(
      JSON.parse(await readFile(join(folder, 'tokenizer.json'), 'utf8')),
      JSON.parse(await readFile(join(folder, 'tokenizer_config.json'), 'utf8')),
    );
    const backend = await createOnnxNodeBackend(join(folder, 'onnx', 'model_read_positions.onnx'), { intraOpThreads: 1 });
    try {
      const [ours] = await generate(backend, tokenizer, [''], { maxTokens: 400, temperature: 0 });
      // run.c's 200 tokens, then the story goes on until it ends with BOS (345 tokens in).
      expect(ours!.fullText.startsWith(greedy200)).toBe(true);
      expect(ours!.stopReason).toBe('stop-token');
      // transformers.js stops there too, only because generation_config.json lists BOS (1) as an EOS, and keeps the stop token.
      expect(theirs).toEqual([...ours!.tokenIds, 1]);
    } finally {
      await backend.dispose();
    }
  });

  it('a hub-layout folder as other tools write it (config.json at the root, only onnx/model.onnx) runs here too', async () => {
    const plain = join(root, 'hub-plain');
    await mkdir(join(plain, 'onnx'), { recursive: true });
    const { reward_lens: _, ...config } = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(plain, 'config.json'), JSON.stringify(config));
    for (const name of ['generation_config.json', 'tokenizer.json', 'tokenizer_config.json']) await copyFile(join(folder, name), join(plain, name));
    await copyFile(join(folder, 'onnx', 'model.onnx'), join(plain, 'onnx', 'model.onnx'));
    const printed = await cli(['generate', '--model', plain, '--backend', 'onnx-node', '--max-tokens', '200', '--temperature', '0', '--prompt', '']);
    expect(printed).toBe(`${await readFile(sharedDataPath('stories260k/greedy-200.txt'), 'utf8')}\n`);
  });
});
