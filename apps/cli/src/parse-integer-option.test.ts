import { describe, expect, it } from 'vitest';
import { parseIntegerOption } from './parse-integer-option.js';
import { parseNumberOption } from './parse-number-option.js';

describe('number flags', () => {
  it('read a given value, and nothing for a flag not given (so a default follows ??)', () => {
    expect(parseIntegerOption('--n', '12', { minimum: 1, maximum: 100 }, 'usage')).toBe(12);
    expect(parseIntegerOption('--n', undefined, { minimum: 1, maximum: 100 }, 'usage') ?? 8).toBe(8);
    expect(parseNumberOption('--top-p', '.5', (value) => value > 0, 'above 0', 'usage')).toBe(0.5);
    expect(parseNumberOption('--top-p', undefined, (value) => value > 0, 'above 0', 'usage')).toBeUndefined();
  });

  it('refuse what is not plainly a number in range', () => {
    expect(() => parseIntegerOption('--n', '1e3', { minimum: 1, maximum: 10_000 }, 'usage')).toThrow('--n must be an integer from 1 to 10000, got "1e3"');
    expect(() => parseNumberOption('--top-p', '0x1', (value) => value > 0, 'above 0', 'usage')).toThrow('--top-p must be above 0, got "0x1"');
  });
});
