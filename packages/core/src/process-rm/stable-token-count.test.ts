import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mathShepherdRecipe, qwen25MathPrmRecipe, skyworkPrmRecipe } from '../recipes/presets.js';
import { plainValueRecipe, type ReadingRecipe } from '../recipes/reading-recipe.js';
import { createByteBpeTokenizer, createHfTokenizer, type PrmTokenizer } from '@reward-lens/tokenizers';
import { loadLenmlTokenizer } from '@reward-lens/test-data/tokenizer-checks';
import { headStableTokenCount, stableTokenCount, stepJoinerOf } from './stable-token-count.js';
import { tokenizePair } from './tokenize-pair.js';

const qwen = loadLenmlTokenizer('qwen3');
const llama = loadLenmlTokenizer('llama3');
const tokenizers: [string, PrmTokenizer][] = [
  ['byte-level BPE without pre-tokenization (reward-lens)', createByteBpeTokenizer({ addedTokens: [' ки'] })],
  ['Qwen2 byte-level BPE', createHfTokenizer(qwen.json, qwen.config, { addedTokens: [{ content: '<extra_0>', id: 151651 }] })],
  ['Llama 3 byte-level BPE', createHfTokenizer(llama.json, llama.config)],
];

const layout = (tokenizer: PrmTokenizer, recipe: ReadingRecipe, problem: string, steps: readonly string[]) =>
  tokenizePair(tokenizer, recipe, { problem, steps }, { delimiter: recipe.delimiter, maxPositions: 1 << 20, truncation: 'none' });

function commonLength(left: ArrayLike<number>, right: ArrayLike<number>): number {
  let length = 0;
  while (length < left.length && length < right.length && left[length] === right[length]) length++;
  return length;
}

// Steps as solutions end them: a sentence, a number, a formula, a question, LaTeX, trailing spaces or emoji.
const stepEnd = fc.constantFrom('.', '', '?', ' = 12', '$', '\\]', ':', '!', ' 😀', '  ', '...', '"', ')', '%');
const stepStart = fc.constantFrom('Then', 'the', '12', ' so', '(a)', '$x', '\\frac', 'É', '-', '"We', '\tthen', '# ');
const words = fc.constantFrom('add 3 and 4', 'so the total is', 'x^2 + 1', 'we get', 'Natalia sold', '48/2');

describe('stableTokenCount: the tokens a next step keeps, asked of the tokenizer', () => {
  for (const [name, tokenizer] of tokenizers) {
    it(`${name}, steps joined by "\\n" and read at their last token: exactly what the next step keeps`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(words, stepEnd), { minLength: 1, maxLength: 3 }), fc.tuple(stepStart, words), ([...prefix], [start, rest]) => {
          const steps = prefix.map(([text, end]) => text + end);
          const pair = layout(tokenizer, plainValueRecipe, 'What is it?', steps);
          const next = layout(tokenizer, plainValueRecipe, 'What is it?', [...steps, `${start} ${rest}.`]);
          expect(stableTokenCount(tokenizer, plainValueRecipe, pair, stepJoinerOf(plainValueRecipe, '\n'))).toBe(commonLength(pair.inputIds, next.inputIds));
        }),
        { numRuns: 150, seed: 7 },
      );
    });
  }

  it('a template suffix is replaced by the next step: the cache stops before it (Qwen2.5-Math-PRM, "<|im_end|>")', () => {
    const tokenizer = tokenizers[1]![1];
    const steps = ['First, 2+2=4.', 'Then, 4*3=12.'];
    const pair = layout(tokenizer, qwen25MathPrmRecipe, 'Compute (2+2)*3.', steps);
    const next = layout(tokenizer, qwen25MathPrmRecipe, 'Compute (2+2)*3.', [...steps, 'So 12.']);
    const stable = stableTokenCount(tokenizer, qwen25MathPrmRecipe, pair, stepJoinerOf(qwen25MathPrmRecipe, qwen25MathPrmRecipe.delimiter));
    expect(stable).toBe(commonLength(pair.inputIds, next.inputIds));
    // Everything through the last step's <extra_0>.
    expect(pair.inputIds[stable - 1]).toBe(151651);
    expect(stable).toBe(pair.readPositions.at(-1)! + 1);
  });

  it('a step tag that is a token (Math-Shepherd\'s " ки"), and steps encoded apart (Skywork): nothing merges, every token is kept', () => {
    const tokenizer = tokenizers[0]![1];
    for (const recipe of [mathShepherdRecipe, skyworkPrmRecipe]) {
      const steps = ['First, 2+2=4.', 'Then, 4*3=12.'];
      const pair = layout(tokenizer, recipe, 'Compute (2+2)*3.', steps);
      const next = layout(tokenizer, recipe, 'Compute (2+2)*3.', [...steps, 'So 12.']);
      expect(stableTokenCount(tokenizer, recipe, pair, stepJoinerOf(recipe, recipe.delimiter)), recipe.name).toBe(commonLength(pair.inputIds, next.inputIds));
      expect(stableTokenCount(tokenizer, recipe, pair, stepJoinerOf(recipe, recipe.delimiter)), recipe.name).toBe(pair.inputIds.length);
    }
  });
});

describe('headStableTokenCount: the problem tokens every first step keeps', () => {
  const problems = fc.constantFrom('What is it?', 'Compute (2+2)*3.', 'Natalia sold 48 clips', 'x^2 + 1 = ', 'Solve:\n', '$\\frac{1}{2}$');
  for (const [name, tokenizer] of tokenizers) {
    // Qwen2.5-Math-PRM's <extra_0> is a token of the Qwen tokenizer only.
    for (const recipe of tokenizer === tokenizers[1]![1] ? [plainValueRecipe, qwen25MathPrmRecipe] : [plainValueRecipe]) {
      it(`${name}, ${recipe.name}: never more than any two first steps share, and all of the problem but what they rewrite`, () => {
        fc.assert(
          fc.property(problems, fc.tuple(stepStart, words), fc.tuple(stepStart, words), (problem, [startA, restA], [startB, restB]) => {
            const a = layout(tokenizer, recipe, problem, [`${startA} ${restA}.`]);
            const b = layout(tokenizer, recipe, problem, [`${startB} ${restB}.`]);
            const head = headStableTokenCount(tokenizer, recipe, a);
            expect(head).toBeLessThanOrEqual(commonLength(a.inputIds, b.inputIds));
            expect(head).toBe(headStableTokenCount(tokenizer, recipe, b));
            // At most the problem's last few tokens are left to the first step.
            expect(a.steps[0]!.tokenSpan[0] - head).toBeLessThanOrEqual(3);
          }),
          { numRuns: 60, seed: 11 },
        );
      });
    }
  }
});
