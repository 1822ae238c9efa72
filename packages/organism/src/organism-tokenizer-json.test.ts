import { createHfTokenizer } from '@reward-lens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOrganism } from './organism.js';
import { organismTokenizerJson } from './organism-tokenizer-json.js';
import { createOrganismTokenizer } from './organism-tokenizer.js';
import { organismVocabulary } from './vocabulary.js';

const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
const tokenizer = createHfTokenizer(tokenizerJson, tokenizerConfig);
const pieces = (text: string) => tokenizer.encode(text).offsets.map(([start, end]) => text.slice(start, end));

function expectExactOffsets(text: string): void {
  const { ids, offsets } = tokenizer.encode(text);
  expect(offsets.length).toBe(ids.length);
  // Offsets tile the text: each token starts where the previous one ended (or, a byte of the same
  // character, shares its span), and together they cover it.
  let previous: readonly [number, number] = [0, 0];
  for (const span of offsets) {
    const sameCharacter = span[0] === previous[0] && span[1] === previous[1];
    if (!sameCharacter) expect(span[0]).toBe(previous[1]);
    expect(span[1]).toBeGreaterThan(span[0]);
    previous = span;
  }
  expect(previous[1]).toBe(text.length);
}

describe('organismTokenizerJson', () => {
  it('is a tokenizer.json the tokenizers library and core read, with its special tokens', () => {
    // The organism's tokens twice (the newline once), the ASCII characters and the 256 bytes, less the characters that are organism tokens already.
    const vocabulary = (tokenizerJson.model as { vocab: Record<string, number> }).vocab;
    expect(new Set(Object.values(vocabulary)).size).toBe(Object.keys(vocabulary).length);
    expect(tokenizer.vocabSize).toBe(Object.keys(vocabulary).length);
    expect(tokenizer.vocabSize).toBeLessThan(4 + 2 * organismVocabulary().tokens.length + 95 + 256);
    expect([tokenizer.padTokenId, tokenizer.bosTokenId, tokenizer.eosTokenId]).toEqual([0, 1, 2]);
    expect(tokenizer.tokenToId('<unk>')).toBe(3);
  });

  it('makes every organism token one token, with and without the space before it, and digits single', () => {
    expect(pieces('3 boxes of 12 pencils is 3 × 12 = 36 pencils.')).toEqual([
      '3',
      ' boxes',
      ' of',
      ' 1',
      '2',
      ' pencils',
      ' is',
      ' 3',
      ' ×',
      ' 1',
      '2',
      ' =',
      ' 3',
      '6',
      ' pencils',
      '.',
    ]);
    for (const token of organismVocabulary().tokens) {
      expect(tokenizer.encode(token).ids, token).toHaveLength(1);
      if (token !== '\n') expect(tokenizer.encode(` ${token}`).ids, ` ${token}`).toHaveLength(1);
    }
  });

  it('gives organism text exactly as many tokens as the word-level organism tokenizer, with exact offsets, and decodes it back', () => {
    const wordLevel = createOrganismTokenizer();
    const organism = createOrganism({ seed: 3, steps: [2, 10], maxNumber: 1000, distractorProbability: 0.5 });
    for (const item of organism.items(200)) {
      const text = `${item.problem}\n${item.steps.join('\n')}\n`;
      const encoded = tokenizer.encode(text);
      expect(encoded.ids).toHaveLength(wordLevel.encode(text).ids.length);
      expect(encoded.ids).not.toContain(3);
      expectExactOffsets(text);
      expect(tokenizer.decode(encoded.ids)).toBe(text);
    }
  });

  it('encodes any text without an unknown token (unknown words in characters, other characters in bytes), offsets exact, decoding exact', () => {
    expect(pieces('Natalia sold 48 clips.')).toEqual([
      'N',
      'a',
      't',
      'a',
      'l',
      'i',
      'a',
      ' ',
      's',
      'o',
      'l',
      'd',
      ' 4',
      '8',
      ' ',
      'c',
      'l',
      'i',
      'p',
      's',
      '.',
    ]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const encoded = tokenizer.encode(text);
        expect(encoded.ids).not.toContain(3);
        expectExactOffsets(text);
        expect(tokenizer.decode(encoded.ids)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
