import { generate } from '@reward-lens/core';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { describe, expect, it } from 'vitest';
import { loadStories260k } from './stories260k.js';

describe('stories260K on backend-tiny (weights nobody here trained)', () => {
  const { model, tokenizer, greedy200 } = loadStories260k();

  it("reproduces llama2.c's greedy 200 tokens from BOS character for character", async () => {
    const backend = createTinyBackend(model);
    const [result] = await generate(backend, tokenizer, [''], { maxTokens: 200, temperature: 0 });
    expect(result!.fullText).toBe(greedy200);
    expect(result!.tokenIds).toHaveLength(200);
    expect(result!.stopReason).toBe('max-tokens');
  });

  // Reduced weights on weights somebody trained: 16-bit floats and q8 keep every greedy choice of
  // run.c's 200 tokens; q4 (a scale per 32 weights) keeps the first ones, then tells its own story.
  it.each(['bf16', 'fp16', 'q8'] as const)("%s reproduces llama2.c's greedy 200 tokens from BOS, every one", async (dtype) => {
    const backend = createTinyBackend(model, { dtype, threads: 1 });
    const [result] = await generate(backend, tokenizer, [''], { maxTokens: 200, temperature: 0 });
    expect(result!.fullText).toBe(greedy200);
    await backend.dispose();
  });

  it("q4 follows llama2.c's greedy tokens for the first sentences before it diverges (the divergence is reported)", async () => {
    const backend = createTinyBackend(model, { dtype: 'q4', threads: 1 });
    const [result] = await generate(backend, tokenizer, [''], { maxTokens: 200, temperature: 0 });
    const text = result!.fullText;
    let same = 0;
    while (same < text.length && text[same] === greedy200[same]) same++;
    console.info(
      `q4 stories260K: the first ${same} of ${greedy200.length} characters of run.c's greedy text, then ${JSON.stringify(text.slice(same, same + 40))}`,
    );
    expect(same).toBeGreaterThanOrEqual(100);
    await backend.dispose();
  });

  it('generates the same text for a prompt alone and batched with others, and stops at a stop string', async () => {
    const backend = createTinyBackend(model);
    const prompts = ['Once upon a time', 'Lily', 'The dog'];
    const batched = await generate(backend, tokenizer, prompts, { maxTokens: 40, temperature: 0.8, topP: 0.9, seed: 42 });
    for (const [index, prompt] of prompts.entries()) {
      const [alone] = await generate(backend, tokenizer, [prompt], { maxTokens: 40, temperature: 0.8, topP: 0.9, seed: 42 });
      expect(batched[index]!.text).toBe(alone!.text);
    }
    expect(batched[0]!.fullText.startsWith('Once upon a time')).toBe(true);
    const [stopped] = await generate(backend, tokenizer, ['Once upon a time'], { maxTokens: 200, stop: ['.'] });
    expect(stopped!.stopReason).toBe('stop-string');
    expect(stopped!.text).not.toContain('.');
  });

  it('samples differently with different seeds and identically with the same seed', async () => {
    const backend = createTinyBackend(model);
    const sample = async (seed: number) => (await generate(backend, tokenizer, ['Once upon a time'], { maxTokens: 30, temperature: 1, seed }))[0]!.text;
    expect(await sample(1)).toBe(await sample(1));
    expect(await sample(1)).not.toBe(await sample(2));
  });
});
