import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractAnswer } from './extract-answer.js';

describe('extractAnswer', () => {
  it('takes the last \\boxed{...}, nested braces whole', () => {
    const solution = 'First $\\boxed{3}$ is wrong.\nSo the answer is $\\boxed{\\frac{\\sqrt{2}}{2}}$.';
    expect(extractAnswer(solution)).toMatchObject({ text: '\\frac{\\sqrt{2}}{2}', method: 'boxed' });
    expect(extractAnswer('\\boxed{\\{1, 2\\}}')?.text).toBe('\\{1, 2\\}');
    expect(extractAnswer('\\fbox{7}')?.text).toBe('7');
    expect(extractAnswer('so \\boxed 5$ done')?.text).toBe('5');
  });

  it('skips an unclosed \\boxed{ and falls back', () => {
    expect(extractAnswer('The answer is 12.\n\\boxed{12')).toMatchObject({ text: '12', method: 'answer-is' });
  });

  it('reads "The answer is ..." to the end of its sentence, and "Final answer:"', () => {
    expect(extractAnswer('In all 48 + 24 = 72.\nThe answer is 72 clips.')).toMatchObject({ text: '72 clips', method: 'answer-is' });
    expect(extractAnswer('The answer is 3.5. Then we stop.')?.text).toBe('3.5');
    expect(extractAnswer('Final answer: $\\frac{1}{2}$')?.text).toBe('$\\frac{1}{2}$');
    expect(extractAnswer('the answer is 4\nthe final answer is 5')?.text).toBe('5');
  });

  it("reads GSM8K's #### answers", () => {
    expect(extractAnswer('Natalia sold 48/2 = 24 clips in May.\n#### 72')).toMatchObject({ text: '72', method: 'hashes' });
  });

  it('falls back to the last number (thousands separators, signs, decimals, fractions), unless told not to', () => {
    expect(extractAnswer('She had 1,234 apples and gave away 12.5 kg, leaving -3/4.')?.text).toBe('-3/4');
    expect(extractAnswer('Total: 1,234,567 people')?.text).toBe('1,234,567');
    expect(extractAnswer('It costs $15 in total')?.text).toBe('$15');
    expect(extractAnswer('No numbers here')).toBeNull();
    expect(extractAnswer('3 + 4 = 7', { lastNumber: false })).toBeNull();
  });

  it('finds any balanced boxed content, the last one winning (property)', () => {
    const balanced = fc.letrec((tie) => ({
      text: fc.oneof(
        { depthSize: 'small' },
        fc.stringMatching(/^[a-z0-9+\-=^ ]{1,6}$/),
        tie('group'),
        fc.tuple(tie('text'), tie('text')).map(([a, b]) => `${a}${b}`),
      ),
      group: tie('text').map((inner) => `{${inner}}`),
    })).text as fc.Arbitrary<string>;
    fc.assert(
      fc.property(balanced, balanced, fc.stringMatching(/^[a-z .,]{0,12}$/), (first, last, filler) => {
        fc.pre(last.trim() !== '');
        const solution = `${filler}\\boxed{${first}} then ${filler} \\boxed{${last}}${filler}`;
        expect(extractAnswer(solution)?.text).toBe(last.trim());
      }),
      { numRuns: 300 },
    );
  });
});
