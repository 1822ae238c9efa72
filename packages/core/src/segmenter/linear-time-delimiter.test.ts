import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import { linearTimeDelimiter } from './linear-time-delimiter.js';
import { segmentSolution } from './segment-solution.js';

describe('linearTimeDelimiter', () => {
  it('finds a catastrophic pattern in linear time instead of hanging (the backtracking engine takes exponential time)', () => {
    const delimiter = linearTimeDelimiter('(a+)+$');
    const started = performance.now();
    // 2^32 backtracking paths for JavaScript's engine; RE2 answers in one pass over 100,000 characters too.
    expect(delimiter.matchSpans(`${'a'.repeat(32)}!`)).toEqual([]);
    expect(delimiter.matchSpans(`${'a'.repeat(100_000)}!`)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('splits a solution like the equivalent RegExp, with flags', () => {
    const solution = 'Step 1: add.\nSTEP 2: multiply.\nstep 3: done.';
    const steps = segmentSolution(solution, { delimiter: linearTimeDelimiter('^step \\d+:\\s*', 'im') }).steps.map((step) => step.text);
    const reference = segmentSolution(solution, { delimiter: /^step \d+:\s*/im }).steps.map((step) => step.text);
    expect(steps).toEqual(['add.', 'multiply.', 'done.']);
    expect(steps).toEqual(reference);
  });

  it('counts characters in UTF-16 code units, as string indices do', () => {
    expect(linearTimeDelimiter('\\n+').matchSpans('é😀 x\n\nb\nc')).toEqual([
      [5, 7],
      [8, 9],
    ]);
  });

  it('refuses what RE2 cannot run, patterns matching the empty string, and unknown flags, with typed errors', () => {
    expect(() => linearTimeDelimiter('(a)\\1')).toThrow(InvalidInputError);
    expect(() => linearTimeDelimiter('(a)\\1')).toThrow(/linear-time engine/);
    expect(() => linearTimeDelimiter('\\n*')).toThrow(/matches the empty string/);
    expect(() => linearTimeDelimiter('x', 'q')).toThrow(/unsupported regular-expression flag "q"/);
  });

  it('agrees with RegExp on every pattern both engines read alike (property)', () => {
    const atoms = fc.constantFrom('a', 'b', '\\n', '[ab]', '\\d', '\\.', ' ', 'x');
    const quantifiers = fc.constantFrom('', '+', '{2}', '?');
    const pattern = fc
      .array(fc.tuple(atoms, quantifiers), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.map(([atom, quantifier]) => atom + quantifier).join(''))
      .filter((source) => !new RegExp(source).test(''));
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', '1', '.', ' ', 'x', 'é'), maxLength: 40 });
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        const expected = [...input.matchAll(new RegExp(source, 'g'))].map((match) => [match.index, match.index + match[0].length]);
        expect(linearTimeDelimiter(source).matchSpans(input)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
