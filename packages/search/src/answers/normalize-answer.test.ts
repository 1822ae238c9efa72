import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnswerChecker } from './answer-checker.js';
import { normalizeAnswer } from './normalize-answer.js';

describe('normalizeAnswer', () => {
  it('groups the equivalent forms of one half', () => {
    for (const form of [
      '0.5',
      '1/2',
      '\\frac{1}{2}',
      '\\dfrac12',
      '\\tfrac{1}{2}',
      '\\frac1{2}',
      '.5',
      '0.50',
      '\\boxed{\\frac12}',
      '$\\frac{1}{2}$',
      '50\\%',
      '50%',
      '2/4',
    ])
      expect(normalizeAnswer(form), form).toBe('1/2');
  });

  it('reads a percent as a number of percent when the problem asks for one', () => {
    const problem = 'What percent of the 40 students are girls?';
    for (const form of ['50\\%', '50%', '50', '50 percent', '\\text{50\\%}']) expect(normalizeAnswer(form, { problem }), form).toBe('50');
    expect(normalizeAnswer('50\\%', { percent: 'number' })).toBe('50');
    expect(normalizeAnswer('50\\%', { percent: 'fraction', problem })).toBe('1/2');
  });

  it('drops thousands separators, currency, trailing units, \\text and a leading +', () => {
    for (const form of [
      '1000',
      '1,000',
      '1{,}000',
      '1\\,000',
      '1 000',
      '$1,000.00',
      '\\$1000',
      '1000 dollars',
      '\\text{1000 apples}',
      '+1000',
      '1000 \\text{ cm}^2',
      '1000.',
      ' 1000 ',
    ])
      expect(normalizeAnswer(form), form).toBe('1000');
  });

  it('keeps signs: negatives, unicode minus, a spaced sign, negative fractions', () => {
    expect(normalizeAnswer('-5')).toBe('-5');
    expect(normalizeAnswer('\u22125')).toBe('-5');
    expect(normalizeAnswer('- 5')).toBe('-5');
    expect(normalizeAnswer('-\\frac{3}{4}')).toBe('-3/4');
    expect(normalizeAnswer('\\frac{-3}{4}')).toBe('-3/4');
    expect(normalizeAnswer('-0.75')).toBe('-3/4');
  });

  it('reads scientific notation and degrees', () => {
    expect(normalizeAnswer('1.5e3')).toBe('1500');
    expect(normalizeAnswer('1.5 \\times 10^{3}')).toBe('1500');
    expect(normalizeAnswer('90^\\circ')).toBe('90');
    expect(normalizeAnswer('90^{\\circ}')).toBe('90');
  });

  it('strips a short left-hand side, keeps non-numeric answers as compact text', () => {
    expect(normalizeAnswer('x = 5')).toBe('5');
    expect(normalizeAnswer('x = \\sqrt2')).toBe('\\sqrt{2}');
    expect(normalizeAnswer('\\left( 1, \\frac{1}{2} \\right)')).toBe('(1,1/2)');
    expect(normalizeAnswer('[0.5, 2)')).toBe('[1/2,2)');
    expect(normalizeAnswer('\\{1, 2\\}')).toBe('{1,2}');
    expect(normalizeAnswer('(B)')).toBe('B');
    expect(normalizeAnswer('Yes')).toBe('yes');
    expect(normalizeAnswer('infinity')).toBe('\\infty');
    expect(normalizeAnswer('2x')).toBe('2x');
    expect(normalizeAnswer('y = 2x + 1')).toBe('2x+1');
  });

  it('does not call different numbers equal', () => {
    expect(normalizeAnswer('0.3333')).not.toBe(normalizeAnswer('1/3'));
    expect(normalizeAnswer('1,234')).toBe('1234');
    expect(normalizeAnswer('12,5')).not.toBe('125');
  });

  it('gives every written form of a rational the same key, the reduced fraction (property)', () => {
    const integer = fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n });
    const positive = fc.bigInt({ min: 1n, max: 10n ** 6n });
    fc.assert(
      fc.property(integer, positive, fc.integer({ min: 1, max: 5 }), (top, bottom, scale) => {
        const sign = top < 0n ? '-' : '';
        const magnitude = top < 0n ? -top : top;
        const key = normalizeAnswer(`${top}/${bottom}`);
        const scaledTop = magnitude * BigInt(scale);
        const scaledBottom = bottom * BigInt(scale);
        for (const form of [
          `${sign}\\frac{${magnitude}}{${bottom}}`,
          `${sign}\\dfrac{${scaledTop}}{${scaledBottom}}`,
          `\\boxed{${sign}${scaledTop}/${scaledBottom}}`,
          `$${sign}\\frac{${magnitude}}{${bottom}}$.`,
        ])
          expect(normalizeAnswer(form), form).toBe(key);
        expect(normalizeAnswer(key)).toBe(key);
      }),
      { numRuns: 300 },
    );
  });

  it('gives an integer the same key however it is written (property)', () => {
    const unit = fc.constantFrom('', ' apples', ' dollars', ' cm', ' km/h', '\\text{ m}^2');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.boolean(), unit, (value, negative, suffix) => {
        const grouped = value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
        const sign = negative ? '-' : '+';
        const key = negative && value !== 0n ? `-${value}` : `${value}`;
        for (const form of [
          `${sign}${value}`,
          `${sign}${grouped}`,
          `${sign}\\$${grouped}${suffix}`,
          `${sign}${value}.00`,
          `\\boxed{${sign}${grouped}}`,
          `${sign} ${value}${suffix}`,
        ])
          expect(normalizeAnswer(form), form).toBe(key);
        if (!negative) expect(normalizeAnswer(`${grouped}${suffix}`)).toBe(key);
      }),
      { numRuns: 300 },
    );
  });

  it('gives terminating decimals the key of their fraction (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 6 }), fc.integer({ min: 0, max: 6 }), (digits, places) => {
        const decimal = (digits / 10 ** places).toFixed(places);
        const key = normalizeAnswer(`${digits}/${10 ** places}`);
        expect(normalizeAnswer(decimal)).toBe(key);
        expect(normalizeAnswer(places > 0 ? `${decimal}0` : `${decimal}.0`)).toBe(key);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent on its own keys (property)', () => {
    const answers = fc.oneof(
      fc.stringMatching(/^[-+]?\d{1,8}(\.\d{1,4})?$/),
      fc.stringMatching(/^\\frac\{\d{1,3}\}\{[1-9]\d{0,2}\}$/),
      fc.stringMatching(/^\([0-9., ]{1,12}\)$/),
      fc.stringMatching(/^[a-z]{1,3}[+\-*][0-9]{1,2}$/),
    );
    fc.assert(
      fc.property(answers, (answer) => {
        const key = normalizeAnswer(answer);
        expect(normalizeAnswer(key)).toBe(key);
      }),
      { numRuns: 500 },
    );
  });
});

describe('createAnswerChecker', () => {
  it('compares against a reference exactly by default, with a tolerance when asked', () => {
    const exact = createAnswerChecker();
    expect(exact.equal('\\dfrac12', '0.5')).toBe(true);
    expect(exact.equal('72 clips', '72')).toBe(true);
    expect(exact.equal('0.3333', '\\frac{1}{3}')).toBe(false);
    const lenient = createAnswerChecker({ relativeTolerance: 1e-4 });
    expect(lenient.equal('0.3333', '\\frac{1}{3}')).toBe(true);
    expect(lenient.equal('0.33', '\\frac{1}{3}')).toBe(false);
  });
});
