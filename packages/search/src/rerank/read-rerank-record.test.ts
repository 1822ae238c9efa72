import { describe, expect, it } from 'vitest';
import { readRerankRecord } from './read-rerank-record.js';

describe('readRerankRecord', () => {
  it('reads the candidates (texts or arrays of steps) and the reference as text, when there is one', () => {
    expect(readRerankRecord({ problem: 'p', candidates: ['a', ['b', 'c']], reference: 3 })).toEqual({
      problem: 'p',
      candidates: ['a', ['b', 'c']],
      reference: '3',
    });
    expect(readRerankRecord({ problem: 'p', candidates: ['a'] })).toEqual({ problem: 'p', candidates: ['a'] });
  });

  it('says what is wrong with a bad record', () => {
    expect(readRerankRecord({ candidates: ['a'] })).toBe('"problem" must be a string');
    expect(readRerankRecord({ problem: 'p', candidates: [] })).toBe('"candidates" must be a non-empty array of solutions');
    expect(readRerankRecord({ problem: 'p', candidates: ['a', ['b', 2]] })).toBe('candidate 1 must be a string or an array of strings');
    expect(readRerankRecord({ problem: 'p', candidates: ['a'], answer: true })).toBe('"answer" must be a string or a number');
  });
});
