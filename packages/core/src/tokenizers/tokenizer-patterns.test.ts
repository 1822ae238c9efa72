import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { createHfTokenizer } from './hf-tokenizer.js';
import { loadLenmlTokenizer } from './hf-tokenizer.test-support.js';
import { nestedUnboundedRepetition } from './tokenizer-patterns.js';

const gpt2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

function patterns(json: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null)
      for (const [key, entry] of Object.entries(value)) key === 'Regex' ? found.push(entry as string) : walk(entry);
  };
  walk(json);
  return found;
}

describe('tokenizer.json patterns a backtracking engine could hang on', () => {
  it.each(['(a+)+$', '(?:a*)*b', '(\\s*x?)*$', '(a{2,})+', '((ab)+c)*', '(?:(?:a|b)+)+'])('%s repeats a repeating group: refused', (pattern) => {
    expect(nestedUnboundedRepetition(pattern)).toBe(true);
  });

  it.each([gpt2, '(ab)+', 'a+b+', '(a{2})+', '[(+)]+', '\\(a+\\)+', "(?i:'s|'t)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+", ' ?\\p{L}+| ?\\p{N}| ?[^\\s\\p{L}\\p{N}]|\\s'])(
    '%s does not: loads',
    (pattern) => {
      expect(nestedUnboundedRepetition(pattern)).toBe(false);
    },
  );

  it("the patterns of real tokenizers (Qwen3's, Llama 3's) pass", () => {
    for (const name of ['qwen3', 'llama3'] as const) {
      const found = patterns(loadLenmlTokenizer(name).json);
      expect(found.length, name).toBeGreaterThan(0);
      for (const pattern of found) expect(nestedUnboundedRepetition(pattern), `${name}: ${pattern}`).toBe(false);
    }
  });

  it('a tokenizer.json with (a+)+$ as its pre-tokenizer is refused at load, naming the file and the pattern, at once', () => {
    const { json, config } = loadLenmlTokenizer('qwen3');
    const hostile = { ...json, pre_tokenizer: { type: 'Split', pattern: { Regex: '(a+)+$' }, behavior: 'Isolated', invert: false } };
    const started = performance.now();
    let error: unknown;
    try {
      createHfTokenizer(hostile, config, { files: { tokenizerJson: '/models/evil/tokenizer.json' } });
    } catch (caught) {
      error = caught;
    }
    expect(performance.now() - started).toBeLessThan(5000);
    expect((error as Error).message).toBe(
      '/models/evil/tokenizer.json: pre_tokenizer.pattern: the pattern "(a+)+$" repeats a group that itself repeats without bound: a backtracking regular-expression engine can take exponential time on it, so it is refused',
    );
    expect(() => createHfTokenizer(hostile, config)).toThrow(InvalidInputError);
  });
});
