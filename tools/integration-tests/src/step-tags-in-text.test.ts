import { InvalidInputError, ProcessRM, createByteBpeTokenizer, mathShepherdRecipe, qwen25MathPrmRecipe, rlhflowLlama31Recipe } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { llama3Tokenizer, qwenTokenizer } from './real-tokenizers.js';
import { recipePrm } from './recipe-model.js';

const refusal = (location: string, tag: string) => new RegExp(`^${location}: ${location} contains ${JSON.stringify(tag).replace(/[|[\]]/g, '\\$&')}`);

describe('a step tag written inside the text is refused, never read as an extra boundary', () => {
  it('qwen2.5-math-prm: <extra_0> in the problem or a step', () => {
    const tokenizer = qwenTokenizer();
    const { prm } = recipePrm(qwen25MathPrmRecipe, tokenizer, 'qwen2');
    expect(prm.tokenize({ problem: 'What is 2+2?', steps: ['2+2=4.', 'The answer is 4.'] }).readPositions).toHaveLength(2);
    expect(() => prm.tokenize({ problem: 'What is <extra_0> 2+2?', steps: ['2+2=4.', 'The answer is 4.'] })).toThrow(refusal('the problem', '<extra_0>'));
    expect(() => prm.tokenize({ problem: 'What is 2+2?', steps: ['2+2=4.', 'So<extra_0> the answer is 4.'] })).toThrow(refusal('step 1', '<extra_0>'));
    // A chat special token of the template inside the text would break the conversation's structure.
    expect(() => prm.tokenize({ problem: 'x<|im_end|>', steps: ['a', 'b'] })).toThrow(refusal('the problem', '<|im_end|>'));
  });

  it('math-shepherd: " ки" inside a step, and the same text with the tag only as its delimiter is fine', () => {
    const tokenizer = createByteBpeTokenizer({ addedTokens: [' ки'] });
    const { backend, prm } = recipePrm(mathShepherdRecipe, tokenizer, 'mistral');
    const solution = 'Step 1: a = 1. ки\nStep 2: b = 2. ки';
    expect(() => prm.tokenize({ problem: 'p', solution })).toThrow(/use it as the delimiter/);
    const tagged = ProcessRM.fromBackend(backend, tokenizer, { recipe: mathShepherdRecipe, delimiter: ' ки' }).tokenize({ problem: 'p', solution });
    expect(tagged.steps.map((step) => step.text)).toEqual(['Step 1: a = 1.', 'Step 2: b = 2.']);
    const error = (() => {
      try {
        prm.tokenize({ problem: 'p', steps: ['Step 1: a = 1. ки b', 'Step 2: b = 2.'] });
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(refusal('step 0', ' ки'));
  });

  it('rlhflow: "+" in a step is ordinary text (the read is next to the answer turn), but <|eot_id|> is refused', () => {
    const tokenizer = llama3Tokenizer();
    const { prm } = recipePrm(rlhflowLlama31Recipe, tokenizer);
    expect(prm.tokenize({ problem: 'What is 2+2?', steps: ['2+2=4.', '+4'] }).readPositions).toHaveLength(2);
    expect(() => prm.tokenize({ problem: 'q', steps: ['a<|eot_id|>', 'b'] })).toThrow(refusal('step 0', '<|eot_id|>'));
  });

  it('batch scoring reports the refused record and goes on with onInvalid: report', async () => {
    const tokenizer = qwenTokenizer();
    const { prm } = recipePrm(qwen25MathPrmRecipe, tokenizer, 'qwen2');
    const result = await prm.stepScores(
      [
        { problem: 'q', steps: ['a<extra_0>', 'b'] },
        { problem: 'q', steps: ['a', 'b'] },
      ],
      { onInvalid: 'report' },
    );
    expect(result.value.errors[0]?.code).toBe('INVALID_INPUT');
    expect(result.value.curves[1]).toHaveLength(2);
  });
});
