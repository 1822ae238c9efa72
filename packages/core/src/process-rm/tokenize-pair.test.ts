import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SequenceTooLongError } from '@reward-lens/spec';
import { plainValueRecipe, type ReadingRecipe } from '../recipes/reading-recipe.js';
import { type CharSpan, createByteBpeTokenizer, type PrmTokenizer } from '@reward-lens/tokenizers';
import { normalizeScoringInput } from './scoring-input.js';
import { tokenizePair, type TokenizeOptions } from './tokenize-pair.js';

const tokenizer = createByteBpeTokenizer();
const options: TokenizeOptions = { delimiter: '\n', maxPositions: 1024, truncation: 'none' };
const tokenize = (problem: string, solution: string, recipe: ReadingRecipe = plainValueRecipe, overrides: Partial<TokenizeOptions> = {}) =>
  tokenizePair(tokenizer, recipe, normalizeScoringInput([problem, solution], 'test'), { ...options, ...overrides });

describe('tokenizePair', () => {
  it('lays out the reference example and reads each step at its last token, the last at the final token', () => {
    const pair = tokenize('Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.');
    expect(pair.text).toBe('Compute (2+2)*3-5.\n\nFirst, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.');
    expect(pair.steps.map((step) => step.text)).toEqual(['First, 2+2=4.', 'Then, 4*3=12.', 'Finally, 12-5=7.']);
    expect(pair.meta).toMatchObject({ nSteps: 3, stepMethod: 'delimiter', truncatedTokens: 0 });
    expect(pair.meta.stepDetection).toBeUndefined();
    expect(pair.inputIds[0]).toBe(tokenizer.bosTokenId);
    expect(pair.readPositions[2]).toBe(pair.inputIds.length - 1);
    for (const step of pair.steps) {
      const [start, end] = pair.offsets[step.readTokenIndex]!;
      expect(start).toBeLessThan(step.charSpan[1]);
      expect(end).toBeGreaterThanOrEqual(step.charSpan[1]);
      expect(pair.text.slice(...step.charSpan)).toBe(step.text);
    }
  });

  it('reads a one-line solution as one step and says why in meta.stepDetection', () => {
    const pair = tokenize('Compute.', 'one line solution with no newline at all');
    expect(pair.meta.nSteps).toBe(1);
    expect(pair.meta.stepMethod).toBe('single');
    expect(pair.meta.stepDetection).toMatch(/no delimiter/);
    expect(pair.notes).toContain(pair.meta.stepDetection);
    expect(pair.readPositions).toEqual([pair.inputIds.length - 1]);
  });

  it('inserts a step tag after every step and reads at the tag token', () => {
    const tagged = createByteBpeTokenizer({ addedTokens: ['<tag>'] });
    const recipe: ReadingRecipe = {
      ...plainValueRecipe,
      name: 'tagged',
      template: { ...plainValueRecipe.template, stepSuffix: '<tag>' },
      readAt: { at: 'suffix', text: '<tag>', tokenOffset: 0 },
    };
    const pair = tokenizePair(tagged, recipe, normalizeScoringInput(['Q', 'a=1\nb=2'], 'test'), options);
    expect(pair.text).toBe('Q\n\na=1<tag>\nb=2<tag>');
    const tagId = tagged.tokenToId('<tag>');
    expect(pair.readPositions.map((position) => pair.inputIds[position])).toEqual([tagId, tagId]);
    expect(pair.readPositions[1]).toBe(pair.inputIds.length - 1);
  });

  it('reads the token before an answer token, and the end of each separately encoded piece', () => {
    const answered: ReadingRecipe = {
      ...plainValueRecipe,
      name: 'answered',
      template: { ...plainValueRecipe.template, stepSuffix: '\n\n+', stepJoiner: '\n' },
      readAt: { at: 'suffix', text: '+', tokenOffset: -1 },
    };
    const pair = tokenize('Q', 'a=1\nb=2', answered);
    expect(pair.text).toBe('Q\n\na=1\n\n+\nb=2\n\n+');
    const plus = tokenizer.tokenToId('+');
    expect(pair.readPositions.map((position) => pair.inputIds[position + 1])).toEqual([plus, plus]);

    const pieces: ReadingRecipe = {
      ...plainValueRecipe,
      name: 'pieces',
      tokenization: 'per-piece',
      template: { ...plainValueRecipe.template, stepSuffix: '\n', stepJoiner: '' },
      readAt: { at: 'piece-end' },
    };
    const piecewise = tokenize('Q', 'x = 4.\nThen y.', pieces);
    expect(piecewise.text).toBe('Q\n\nx = 4.\nThen y.\n');
    // The step and its separator are encoded on their own (as TRL and Skywork do): ".\n" does not merge.
    const first = [...tokenizer.encode('x = 4.').ids, ...tokenizer.encode('\n').ids];
    expect(first).not.toEqual(tokenizer.encode('x = 4.\n').ids);
    expect(Array.from(piecewise.inputIds.slice(1 + tokenizer.encode('Q\n\n').ids.length, piecewise.readPositions[0]! + 1))).toEqual(first);
    expect(piecewise.readPositions[1]).toBe(piecewise.inputIds.length - 1);
  });

  it('rejects a step tag that is not one token', () => {
    const recipe: ReadingRecipe = {
      ...plainValueRecipe,
      name: 'tagged',
      template: { ...plainValueRecipe.template, stepSuffix: '<not-a-token>' },
      readAt: { at: 'suffix', text: '<not-a-token>', tokenOffset: 0 },
    };
    expect(() => tokenize('Q', 'a\nb', recipe)).toThrow(/not one token/);
  });

  it('throws on a too-long sequence, or truncates on the left and says what was lost', () => {
    const solution = Array.from({ length: 30 }, (_, index) => `Step ${index}: add ${index} to the total.`).join('\n');
    expect(() => tokenize('Sum.', solution, plainValueRecipe, { maxPositions: 64 })).toThrow(SequenceTooLongError);
    const pair = tokenize('Sum.', solution, plainValueRecipe, { maxPositions: 64, truncation: 'left' });
    expect(pair.inputIds.length).toBe(64);
    expect(pair.meta.truncatedTokens).toBeGreaterThan(0);
    expect(pair.readPositions[pair.readPositions.length - 1]).toBe(63);
    expect(pair.readPositions.filter((position) => position === -1).length).toBeGreaterThan(0);
    expect(pair.notes.join(' ')).toMatch(/truncated \d+ tokens from the start.*have no score/);
  });

  it('keeps the step invariants for generated solutions and delimiters', () => {
    const stepText = fc.stringMatching(/^[A-Za-z0-9 +*=.,:é😀中]{1,24}$/u).filter((text) => text.trim().length > 0);
    fc.assert(
      fc.property(fc.array(stepText, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\n\n', ' ки '), (steps, delimiter) => {
        const pair = tokenize('Problem?', steps.join(delimiter), plainValueRecipe, { delimiter });
        const expected = steps.map((step) => step.trim()).filter((step) => step.length > 0);
        expect(pair.steps.map((step) => step.text)).toEqual(expected.length >= 2 ? expected : [steps.join(delimiter).trim()]);
        expect(pair.readPositions[pair.readPositions.length - 1]).toBe(pair.inputIds.length - 1);
        for (let index = 1; index < pair.readPositions.length; index++)
          expect(pair.readPositions[index]).toBeGreaterThanOrEqual(pair.readPositions[index - 1]!);
      }),
      { numRuns: 300 },
    );
  });
});

describe('tokenizePair boundary merges', () => {
  it('flags a read token that reaches into the next step, not one that only covers the delimiter', () => {
    // ".\n" is one token of the byte-BPE tokenizer: it covers the delimiter only.
    const delimiterMerge = tokenize('Q', 'x = 4.\nThen y.');
    expect(delimiterMerge.steps[0]!.readTokenCrossesBoundary).toBe(false);
    // A tokenizer whose tokens are 4-character chunks merges across every boundary.
    const chunks: PrmTokenizer = {
      name: 'chunks-of-4',
      vocabSize: 8,
      bosTokenId: null,
      eosTokenId: null,
      padTokenId: 0,
      decode: () => '',
      tokenToId: () => undefined,
      encode: (text) => {
        const offsets: CharSpan[] = [];
        for (let start = 0; start < text.length; start += 4) offsets.push([start, Math.min(text.length, start + 4)]);
        return { ids: offsets.map(() => 7), offsets };
      },
    };
    const recipe: ReadingRecipe = { ...plainValueRecipe, addBos: false, template: { ...plainValueRecipe.template, problemSuffix: '' } };
    // Text "Q" + "ab;cd;efghij": tokens "Qab;", "cd;e", "fghi", "j"; steps "ab", "cd", "efghij".
    const inside = tokenizePair(chunks, recipe, normalizeScoringInput(['Q', 'ab;cd;efghij'], 'test'), { ...options, delimiter: ';' });
    expect(inside.steps.map((step) => step.readTokenIndex)).toEqual([0, 1, 3]);
    expect(inside.steps.map((step) => step.readTokenCrossesBoundary)).toEqual([false, true, false]);
    expect(inside.meta.notes).toEqual(inside.notes);
  });
});
