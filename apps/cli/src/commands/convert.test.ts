import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stories260kFiles } from '../../test/support/model-folders.js';
import { runMain } from '../../test/support/run-main.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-convert-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const files = stories260kFiles();

describe('convert llama2c', () => {
  it('writes stories260K as a Hugging Face folder and says what it wrote', async () => {
    const out = join(root, 'stories260k');
    const { exitCode, stdout, stderr } = await runMain(['convert', 'llama2c', files.checkpoint, files.tokenizer, out]);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.split('\n')).toEqual([
      `wrote ${out}`,
      '  config.json             LlamaForCausalLM: hidden 64, 5 layers, 8 heads (4',
      '                          key/value), vocabulary 512, 512 positions, tied',
      '                          embeddings',
      '  model.safetensors       47 tensors, 260,032 parameters, float32, 1020.5 KiB',
      '  tokenizer.json          512 pieces from tok512.bin',
      '  tokenizer_config.json   BOS "<s>" = 1, EOS "</s>" = 2',
      '  generation_config.json  stops at [2,1] (EOS, and BOS as run.c does)',
      '',
    ]);
    expect(JSON.parse(await readFile(join(out, 'generation_config.json'), 'utf8'))).toEqual({ bos_token_id: 1, eos_token_id: [2, 1] });
    const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({
      architectures: ['LlamaForCausalLM'],
      model_type: 'llama',
      hidden_size: 64,
      vocab_size: 512,
      bos_token_id: 1,
      eos_token_id: 2,
    });
    for (const name of ['model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) expect(existsSync(join(out, name))).toBe(true);
  });

  it('a truncated checkpoint is a MODEL_LOAD error naming the file, and nothing is written', async () => {
    const truncated = join(root, 'truncated.bin');
    await writeFile(truncated, (await readFile(files.checkpoint)).subarray(0, 100_000));
    const out = join(root, 'from-truncated');
    const { exitCode, stdout, stderr } = await runMain(['convert', 'llama2c', truncated, files.tokenizer, out]);
    expect(exitCode).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(`^reward-lens: MODEL_LOAD: ${truncated.replace(/[.\\]/g, '\\$&')}: llama2.c checkpoint is truncated: .*the file has 100000\\n$`),
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a missing input file is a MODEL_LOAD error naming it', async () => {
    const missing = join(root, 'no-such-tokenizer.bin');
    const { exitCode, stderr } = await runMain(['convert', 'llama2c', files.checkpoint, missing, join(root, 'unused')]);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(`reward-lens: MODEL_LOAD: ${missing}: cannot be read (ENOENT)\n`);
  });

  it('does not write into a folder that holds files unless --force', async () => {
    const out = join(root, 'occupied');
    await mkdir(out);
    await writeFile(join(out, 'notes.txt'), 'keep me');
    const refused = await runMain(['convert', 'llama2c', files.checkpoint, files.tokenizer, out]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(`reward-lens: INVALID_INPUT: ${out}: the folder is not empty (it holds notes.txt); pass --force to write into it\n`);
    const forced = await runMain(['convert', 'llama2c', files.checkpoint, files.tokenizer, out, '--force']);
    expect(forced.exitCode).toBe(0);
    expect(existsSync(join(out, 'model.safetensors'))).toBe(true);
  });

  it.each([
    [[], 'give the format to convert from: llama2c'],
    [['gguf', 'a', 'b', 'c'], 'unknown format "gguf"'],
    [['llama2c', 'a.bin', 'b.bin'], 'needs <checkpoint.bin> <tokenizer.bin> <out-folder>'],
    [['llama2c', 'a.bin', 'b.bin', 'out', 'extra'], 'unexpected argument "extra"'],
  ])('%j is a usage error', async (args, message) => {
    const { exitCode, stderr } = await runMain(['convert', ...args]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('reward-lens convert llama2c <checkpoint.bin>');
  });
});
