import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stories260kFiles } from '../../test/support/model-folders.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';
import { flags } from '../../test/support/flags.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-generate-'));
const model = join(root, 'stories260k');
afterAll(() => rm(root, { recursive: true, force: true }));

// The folder comes from the convert command itself: llama2.c files in, run.c's text out.
beforeAll(async () => {
  const files = stories260kFiles();
  const converted = await runMain(['convert', 'llama2c', files.checkpoint, files.tokenizer, model]);
  expect(converted.exitCode).toBe(0);
});

interface GenerationJson {
  prompt: string;
  text: string;
  fullText: string;
  tokenIds: number[];
  stopReason: string;
}

describe('generate with a converted llama2.c model', () => {
  // auto picks onnx-node, which exports the weights to ONNX in memory; tiny runs them directly.
  it.each(['auto', 'tiny'])("greedy from BOS prints run.c's 200 tokens exactly, then one newline (--backend %s)", async (backend) => {
    const greedy200 = await readFile(stories260kFiles().greedy200, 'utf8');
    const { exitCode, stdout, stderr } = await runMain(['generate', ...flags({ model, backend, 'max-tokens': '200', temperature: '0', prompt: '' })]);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${greedy200}\n`);
  });

  it('prints the prompt followed by its continuation', async () => {
    const { exitCode, stdout } = await runMain([
      'generate',
      ...flags({ model, prompt: 'Once upon a time', 'max-tokens': '30', temperature: '0.8', 'top-p': '0.9', seed: '42' }),
    ]);
    expect(exitCode).toBe(0);
    expect(stdout.startsWith('Once upon a time')).toBe(true);
    expect(stdout.length).toBeGreaterThan('Once upon a time\n'.length + 20);
    expect(stdout.endsWith('\n')).toBe(true);
  });

  it('several prompts are one batch: each output is what it is alone, in order, a blank line apart', async () => {
    const sampling = ['--max-tokens', '25', '--temperature', '0.8', '--top-p', '0.9', '--seed', '7'];
    const prompts = ['Lily', 'The dog'];
    const batched = await runMain(['generate', '--model', model, ...prompts.flatMap((prompt) => ['--prompt', prompt]), ...sampling, '--json']);
    expect(batched.exitCode).toBe(0);
    const generations = jsonLines(batched.stdout) as unknown as GenerationJson[];
    expect(generations.map((generation) => generation.prompt)).toEqual(prompts);
    for (const [index, prompt] of prompts.entries()) {
      const alone = jsonLines(
        (await runMain(['generate', '--model', model, '--prompt', prompt, ...sampling, '--json'])).stdout,
      )[0] as unknown as GenerationJson;
      expect(generations[index]).toEqual(alone);
      expect(alone.fullText.startsWith(prompt)).toBe(true);
      expect(alone.tokenIds).toHaveLength(25);
      expect(alone.stopReason).toBe('max-tokens');
    }
    const text = await runMain(['generate', '--model', model, ...prompts.flatMap((prompt) => ['--prompt', prompt]), ...sampling]);
    expect(text.stdout).toBe(`${generations[0]!.fullText}\n\n${generations[1]!.fullText}\n`);
  });

  it('--stop cuts the continuation before the stop text (--include-stop keeps it)', async () => {
    const args = ['generate', '--model', model, '--prompt', 'Tom', '--max-tokens', '100', '--temperature', '0', '--stop', '.'];
    const generation = jsonLines((await runMain([...args, '--json'])).stdout)[0] as unknown as GenerationJson;
    expect(generation.stopReason).toBe('stop-string');
    expect(generation.text).not.toContain('.');
    const { stdout } = await runMain(args);
    expect(stdout).not.toContain('.');
    expect(stdout.startsWith('Tom')).toBe(true);
    expect(stdout.endsWith(`${generation.text}\n`)).toBe(true);
    const kept = await runMain([...args, '--include-stop']);
    expect(kept.stdout).toBe(`${stdout.slice(0, -1)}.\n`);
  });
});

describe('generate', () => {
  it('runs the seeded tiny model when no --model is given', async () => {
    const { exitCode, stdout } = await runMain(['generate', '--prompt', 'Hi', '--max-tokens', '5', '--temperature', '0', '--json']);
    expect(exitCode).toBe(0);
    const [generation] = jsonLines(stdout) as unknown as GenerationJson[];
    expect(generation!.prompt).toBe('Hi');
    expect(generation!.fullText.startsWith('Hi')).toBe(true);
    expect(generation!.tokenIds.length).toBeGreaterThan(0);
  });

  it.each([
    [['--temperature=-1'], '--temperature must be a number, 0 or more'],
    [['--temperature', 'hot'], '--temperature must be a number, 0 or more'],
    [['--top-p', '0'], '--top-p must be a number above 0 and at most 1'],
    [['--top-p', '1.5'], '--top-p must be a number above 0 and at most 1'],
    [['--seed', '1.5'], '--seed must be an integer from 0'],
    [['--max-tokens', 'ten'], '--max-tokens must be an integer from 0'],
    [['--stop', ''], '--stop must not be empty'],
    [['stray'], 'unexpected argument "stray"'],
  ])('%j is a usage error', async (args, message) => {
    const { exitCode, stderr } = await runMain(['generate', ...args]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('reward-lens generate [--model <folder>]');
  });

  it('a missing model folder is a MODEL_LOAD error naming it', async () => {
    const missing = join(root, 'no-such-model');
    const { exitCode, stderr } = await runMain(['generate', '--model', missing, '--prompt', 'x']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(`reward-lens: MODEL_LOAD: ${missing}: folder not found\n`);
  });
});
