import { describe, expect, it } from 'vitest';
import { createOrganism } from './organism.js';
import { createOrganismTokenizer } from './organism-tokenizer.js';
import { createOrganismPolicy } from './policy.js';
import { createRandom } from './random.js';
import { organismTokenPattern, organismVocabulary } from './vocabulary.js';

const texts = (() => {
  const all: string[] = [];
  for (const [seed, maxNumber] of [
    [0, 100],
    [1, 10],
    [2, 1000],
  ] as const) {
    const organism = createOrganism({ seed, maxNumber, steps: [2, 10], distractorProbability: 0.5 });
    for (const item of organism.items(150)) all.push(`${item.problem}\n${item.steps.join('\n')}`);
    for (const pair of organism.pairs(30)) all.push(`${pair.problem}\n${pair.flawed.steps.join('\n')}`);
  }
  const policy = createOrganismPolicy({ errorProbability: 0.5, rescueProbability: 0.5 });
  const organism = createOrganism({ seed: 4 });
  for (let seed = 0; seed < 100; seed++) all.push(policy.complete(organism.item(seed).problem, [], createRandom(seed)).steps.join('\n'));
  return all;
})();

describe('organismVocabulary', () => {
  it('holds every token the generator and the policy write, and is small', () => {
    const vocabulary = new Set(organismVocabulary().tokens);
    const seen = new Set<string>();
    for (const text of texts) for (const match of text.matchAll(organismTokenPattern)) seen.add(match[0]);
    expect([...seen].filter((token) => !vocabulary.has(token))).toEqual([]);
    expect(organismVocabulary().tokens.length).toBeLessThan(200);
    expect(organismVocabulary().digits).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(organismVocabulary().symbols).toEqual(expect.arrayContaining(['+', '−', '×', '÷', '=', '.', '?']));
    // Most of the vocabulary is used (the list is not padded with words the organism never writes).
    expect(seen.size / vocabulary.size).toBeGreaterThan(0.9);
  });
});

describe('createOrganismTokenizer', () => {
  const tokenizer = createOrganismTokenizer();

  it('splits numbers into digits and decodes organism text back exactly', () => {
    expect(tokenizer.tokenize('3 boxes of 12 pencils is 3 × 12 = 36 pencils.')).toEqual([
      '3',
      'boxes',
      'of',
      '1',
      '2',
      'pencils',
      'is',
      '3',
      '×',
      '1',
      '2',
      '=',
      '3',
      '6',
      'pencils',
      '.',
    ]);
    for (const text of texts) {
      const { ids } = tokenizer.encode(text);
      expect(ids).not.toContain(tokenizer.tokenToId('<unk>'));
      expect(tokenizer.decode(ids)).toBe(text);
    }
  });

  it('gives character spans that cover the text with no gap, unknown words included', () => {
    for (const text of [...texts.slice(0, 50), '  Zed has 3 ✨ marbles.  ', 'a\n\nb']) {
      const { ids, offsets } = tokenizer.encode(text);
      expect(offsets).toHaveLength(ids.length);
      expect(offsets[0]![0]).toBe(0);
      expect(offsets.at(-1)![1]).toBe(text.length);
      for (let index = 1; index < offsets.length; index++) expect(offsets[index]![0]).toBe(offsets[index - 1]![1]);
    }
    const { ids } = tokenizer.encode('Zed has 3 ✨ marbles.');
    expect(ids.filter((id) => id === tokenizer.tokenToId('<unk>'))).toHaveLength(2);
  });

  it('has the special tokens first', () => {
    expect([tokenizer.padTokenId, tokenizer.bosTokenId, tokenizer.eosTokenId, tokenizer.tokenToId('<unk>')]).toEqual([0, 1, 2, 3]);
    expect(tokenizer.vocabSize).toBe(organismVocabulary().tokens.length + 4);
  });
});
