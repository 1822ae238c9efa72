import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

/** TRL records of a synthetic task: a step claims a digit is even, and is right when it is. */
function trlLines(count: number, salt: number): string {
  return Array.from({ length: count }, (_, index) => {
    const digits = Array.from({ length: 2 + ((index * 7 + salt) % 4) }, (_, step) => (index * 31 + step * 17 + salt * 5) % 10);
    return JSON.stringify({ prompt: 'Check each claim.', completions: digits.map((digit) => `even ${digit}`), labels: digits.map((digit) => digit % 2 === 0) });
  }).join('\n');
}

const config = {
  model_type: 'llama',
  hidden_size: 32,
  intermediate_size: 64,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  vocab_size: 32,
  max_position_embeddings: 128,
  rms_norm_eps: 1e-5,
};

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'reward-lens-cli-train-'));
  await writeFile(join(folder, 'train.jsonl'), trlLines(300, 1));
  await writeFile(join(folder, 'held-out.jsonl'), trlLines(40, 2));
  await writeFile(join(folder, 'config.json'), JSON.stringify(config));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('train', () => {
  it('trains from a config.json and a character tokenizer, lowers the held-out loss, and writes a folder `score` reads', async () => {
    const out = join(folder, 'prm');
    const args = ['train', '--data', join(folder, 'train.jsonl'), '--held-out', join(folder, 'held-out.jsonl'), '--config', join(folder, 'config.json')];
    const options = ['--tokenizer', 'characters', '--out', out, '--steps', '40', '--batch-tokens', '600', '--lr', '3e-3', '--warmup', '4', '--seed', '3'];
    const { exitCode, stdout, stderr } = await runMain([...args, ...options, '--evaluate-every', '20', '--checkpoint-every', '20', '--json']);
    expect(stderr).toMatch(/^training [\d,]+ parameters for 40 steps/m);
    expect(stderr).toMatch(/^held-out at step 0: loss 0\.[67]\d+/m);
    expect(stderr).toMatch(/^step 40\/40 \[#+\] loss /m);
    expect(exitCode).toBe(0);
    const [report] = jsonLines(stdout);
    expect(report).toMatchObject({ folder: out, stopped: 'completed', step: 40 });
    const heldOut = report!.heldOut as { loss: number; f1: number };
    expect(heldOut.loss).toBeLessThan(0.4);
    expect(await readdir(out)).toEqual(expect.arrayContaining(['config.json', 'model.safetensors', 'tokenizer.json', 'README.md', 'checkpoints']));
    expect(await readFile(join(out, 'README.md'), 'utf8')).toContain('40 records of');

    const scored = await runMain(['score', '--model', out, '--problem', 'Check each claim.', '--solution', 'even 4\neven 7', '--json']);
    expect(scored.exitCode).toBe(0);
    const steps = (jsonLines(scored.stdout)[0] as { stepScores: number[] }).stepScores;
    expect(steps).toHaveLength(2);
    expect(steps[0]).toBeGreaterThan(0.5);
    expect(steps[1]).toBeLessThan(0.5);

    // Resuming a finished run finds nothing left to do.
    const again = await runMain([
      'train',
      '--data',
      join(folder, 'train.jsonl'),
      '--held-out',
      join(folder, 'held-out.jsonl'),
      ...options.slice(2),
      '--resume',
    ]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toMatch(/^checkpoint /m);
    expect(again.stdout).toMatch(/^trained: step 40 of 40/);
  });

  it('explains what is missing or inconsistent', async () => {
    const data = join(folder, 'train.jsonl');
    const usage = async (args: string[], pattern: RegExp) => {
      const { exitCode, stderr } = await runMain(['train', ...args]);
      expect(exitCode).toBe(2);
      expect(stderr).toMatch(pattern);
    };
    await usage(['--out', 'x'], /--data is required/);
    await usage(['--data', data, '--out', 'x'], /give --config \(with --tokenizer\)/);
    await usage(['--data', data, '--out', 'x', '--config', 'c.json'], /--config needs --tokenizer/);
    await usage(['--data', data, '--out', 'x', '--init', 'f', '--after-error', 'maybe'], /--after-error must be ignore or negative/);
    await usage(['--data', data, '--out', 'x', '--init', 'f', '--lm-weight=-1'], /--lm-weight must be a number of at least 0/);
    const resume = await runMain(['train', '--data', data, '--out', join(folder, 'nothing-here'), '--resume']);
    expect(resume.exitCode).toBe(1);
    expect(resume.stderr).toMatch(/INVALID_INPUT: there is no checkpoint to resume/);
  });
});
