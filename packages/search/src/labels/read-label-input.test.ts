import { describe, expect, it } from 'vitest';
import { readLabelInput } from './read-label-input.js';

describe('readLabelInput', () => {
  it('reads steps, or a solution split at the delimiter (trimmed, empty steps dropped), and the reference as text', () => {
    expect(readLabelInput({ problem: 'p', steps: ['a', 'b'], answer: 5 }, '\n')).toEqual({ problem: 'p', steps: ['a', 'b'], reference: '5' });
    expect(readLabelInput({ problem: 'p', solution: ' a \n\nb', reference: 'x' }, '\n')).toEqual({ problem: 'p', steps: ['a', 'b'], reference: 'x' });
  });

  it('says what is wrong with a bad record', () => {
    expect(readLabelInput({ steps: ['a'], answer: 1 }, '\n')).toBe('"problem" must be a string');
    expect(readLabelInput({ problem: 'p', steps: ['a', 1], answer: 1 }, '\n')).toBe('"steps" must hold strings');
    expect(readLabelInput({ problem: 'p', answer: 1 }, '\n')).toBe('"solution" must be a string or an array of strings');
    expect(readLabelInput({ problem: 'p', solution: '\n\n', answer: 1 }, '\n')).toBe('the solution has no steps');
    expect(readLabelInput({ problem: 'p', steps: ['a'], answer: null }, '\n')).toBe('"answer" (or "reference") must be a string or a number');
  });
});
