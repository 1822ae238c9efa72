import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelLoadError, ProcessRM, SequenceTooLongError, createHfTokenizer, qwen25MathPrmRecipe } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import { expectClose } from '@reward-lens/core/testing';
import '@reward-lens/backend-tiny/register';
import { afterAll, describe, expect, it } from 'vitest';
import { processBenchGsm8k } from './processbench.js';
import { qwenTokenizerFiles } from './real-tokenizers.js';
import { indicesOf, readHead, recipeModel, softmax } from './recipe-model.js';

const folders: string[] = [];
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'reward-lens-pretrained-'));
  folders.push(folder);
  return folder;
}
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A Qwen2.5-Math-PRM-shaped folder: Qwen2 config, the MLP score head, Qwen's tokenizer with <extra_0>. */
async function writeQwenPrmFolder() {
  const files = qwenTokenizerFiles();
  const tokenizerJson = structuredClone(files.tokenizerJson) as { added_tokens: { id: number; content: string }[] };
  const extra = tokenizerJson.added_tokens.find((token) => token.id === 151651)!;
  extra.content = '<extra_0>';
  const tokenizer = createHfTokenizer(tokenizerJson, files.tokenizerConfig);
  const { model, backend } = recipeModel({ vocabSize: 151_936, heads: qwen25MathPrmRecipe.heads, architecture: 'qwen2' });
  const folder = tempFolder();
  await writeDecoderFolder(folder, {
    model,
    tokenizerJson,
    tokenizerConfig: files.tokenizerConfig,
    hfConfig: { architectures: ['Qwen2ForProcessRewardModel'] },
  });
  return { folder, tokenizer, backend };
}

describe('ProcessRM.fromPretrained', () => {
  const item = processBenchGsm8k()[0]!;

  it('loads a Qwen2.5-Math-PRM-shaped folder, infers its recipe and reads what the recipe says', async () => {
    const { folder, tokenizer, backend } = await writeQwenPrmFolder();
    const prm = await ProcessRM.fromPretrained(folder, { backend: 'tiny' });
    expect(prm.recipe.name).toBe('qwen2.5-math-prm');
    expect(prm.notes.join('\n')).toMatch(/recipe "qwen2.5-math-prm" inferred from config.json/);
    const evidence = await prm.stepScores([{ problem: item.problem, steps: item.steps }]);
    const ids = Array.from(prm.tokenize({ problem: item.problem, steps: item.steps }).inputIds);
    const positions = indicesOf(ids, tokenizer.tokenToId('<extra_0>')!);
    const expected = (await readHead(backend, ids, 'classifier', positions)).map((logits) => softmax(logits)[1]!);
    expectClose(evidence.value.curves[0]!, expected, 1e-6, 'loaded vs in-memory weights');
  });

  it('names the file and the problem for broken folders', async () => {
    const { folder } = await writeQwenPrmFolder();
    // Missing tokenizer.
    const noTokenizer = tempFolder();
    for (const file of ['config.json', 'model.safetensors']) writeFileSync(join(noTokenizer, file), readFileSync(join(folder, file)));
    await expect(ProcessRM.fromPretrained(noTokenizer, { backend: 'tiny' })).rejects.toThrow(/tokenizer\.json/);
    // Truncated weights.
    const truncated = tempFolder();
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) writeFileSync(join(truncated, file), readFileSync(join(folder, file)));
    writeFileSync(join(truncated, 'model.safetensors'), readFileSync(join(folder, 'model.safetensors')).subarray(0, 5000));
    const error = await ProcessRM.fromPretrained(truncated, { backend: 'tiny' }).catch((caught: unknown) => caught);
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect((error as ModelLoadError).message).toContain('model.safetensors');
    // A plain causal LM needs a recipe.
    const causal = tempFolder();
    for (const file of ['model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) writeFileSync(join(causal, file), readFileSync(join(folder, file)));
    const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
    writeFileSync(join(causal, 'config.json'), JSON.stringify({ ...config, architectures: ['Qwen2ForCausalLM'] }));
    await expect(ProcessRM.fromPretrained(causal, { backend: 'tiny' })).rejects.toThrow(/pass a recipe/);
    // A tokenizer whose vocabulary does not fit the model.
    const small = tempFolder();
    for (const file of ['model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) writeFileSync(join(small, file), readFileSync(join(folder, file)));
    writeFileSync(join(small, 'config.json'), JSON.stringify({ ...config, vocab_size: 1000 }));
    await expect(ProcessRM.fromPretrained(small, { backend: 'tiny' })).rejects.toThrow(/model\.embed_tokens\.weight|tokenizer has/);
  });

  it('refuses a too-long sequence, or truncates it on the left and says so', async () => {
    const { folder } = await writeQwenPrmFolder();
    const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...config, max_position_embeddings: 128 }));
    const strict = await ProcessRM.fromPretrained(folder, { backend: 'tiny' });
    await expect(strict.stepScores([{ problem: item.problem, steps: item.steps }])).rejects.toBeInstanceOf(SequenceTooLongError);
    const lenient = await ProcessRM.fromPretrained(folder, { backend: 'tiny', truncation: 'left' });
    const evidence = await lenient.stepScores([{ problem: item.problem, steps: item.steps }]);
    expect(evidence.notes.join('\n')).toMatch(/truncated \d+ tokens from the start to fit 128 positions/);
    expect(Number.isNaN(evidence.value.curves[0]![0]!)).toBe(true);
    expect(Number.isFinite(evidence.value.curves[0]![3]!)).toBe(true);
  });
});
