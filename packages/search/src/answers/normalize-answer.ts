import { readGroup, unwrapCommands } from './latex-groups.js';
import { parseNumber } from './parse-number.js';
import { divide, formatRational, rational } from './rational.js';

/**
 * What `50\%` stands for. `fraction`: one half (1/2). `number`: fifty (the problem asked for a
 * percentage, so `50` and `50\%` are the same answer). `auto` (the default): `number` when the
 * problem mentions percent (`percent`, `percentage`, `%`), else `fraction`.
 */
export type PercentMeaning = 'fraction' | 'number' | 'auto';

export interface NormalizeOptions {
  percent?: PercentMeaning;
  /** The problem, for `percent: 'auto'`. */
  problem?: string;
}

const textCommands = ['text', 'textbf', 'textrm', 'textit', 'textnormal', 'mathrm', 'mathbf', 'mathit', 'mbox', 'boxed', 'fbox'];

/** A number at the start: decimal (with e-notation), `\frac{a}{b}` or `a/b`, then whatever follows. */
const numericHead = /^([+-]?(?:\\frac\{[^{}]+\}\{[^{}]+\}|\d+(?:\.\d*)?(?:\/\d+(?:\.\d+)?)?|\.\d+)(?:[eE][+-]?\d+)?)(.*)$/s;

/** Words after a number that read as its unit: `clips`, `cm^2`, `km/h`, `square feet`, `p.m.`. */
const unitWords = /^\s+[A-Za-z][A-Za-z.]*(?:\^\d+)?(?:[\s/]+[A-Za-z][A-Za-z.]*(?:\^\d+)?)*$/;

function percentMeaning(options: NormalizeOptions): 'fraction' | 'number' {
  const meaning = options.percent ?? 'auto';
  if (meaning !== 'auto') return meaning;
  return options.problem !== undefined && /percent|%/i.test(options.problem) ? 'number' : 'fraction';
}

/** LaTeX spacing, sizing and math-mode markup that never changes a value. */
function stripMarkup(text: string): string {
  let result = text
    .replace(/\r?\n/g, ' ')
    .replace(/[\u2212\u2012\u2013]/g, '-')
    .replace(/[\u00a0\u2009\u202f]/g, ' ')
    .replace(/\\\$/g, '')
    .replace(/\$/g, '')
    .replace(/\\[()[\]]/g, '')
    .replace(/\\(?:left|right|big|Big|bigg|Bigg)(?![A-Za-z])/g, '')
    .replace(/\\displaystyle(?![A-Za-z])/g, '')
    .replace(/\\[!,;:]/g, '')
    .replace(/\\ /g, ' ')
    .replace(/~/g, ' ')
    .replace(/\{,\}/g, ',')
    .replace(/\\[dt]frac(?![A-Za-z])/g, '\\frac')
    .replace(/\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\circ|\\degree|°/g, '');
  result = unwrapCommands(result, textCommands);
  // \frac12, \frac1{2}, \frac{1}2 -> \frac{1}{2} (Hendrycks' _fix_fracs); \sqrt2 -> \sqrt{2}.
  result = result.replace(/\\frac\s*(\d|\{[^{}]*\})\s*(\d|\{[^{}]*\})/g, (_, top: string, bottom: string) => `\\frac{${unbrace(top)}}{${unbrace(bottom)}}`);
  result = result.replace(/\\sqrt\s*(\d+|[A-Za-z])/g, '\\sqrt{$1}');
  return result.trim();
}

function unbrace(text: string): string {
  return text.startsWith('{') ? text.slice(1, -1) : text;
}

/** `x = 5` -> `5` when the left side is a short name (Qwen2.5-Math strips a left side of at most 2 characters). */
function dropShortLeftSide(text: string): string {
  const parts = text.split('=');
  if (parts.length !== 2) return text;
  const left = parts[0]!.trim();
  return left.length > 0 && left.length <= 2 && /^[A-Za-z][A-Za-z0-9_']?$/.test(left) ? parts[1]!.trim() : text;
}

function stripPercent(text: string): { text: string; percent: boolean } {
  const match = /^(.*?)\s*(?:\\%|%|\s+percent|\s+per\s?cent)$/is.exec(text);
  return match && match[1]!.trim() !== '' ? { text: match[1]!.trim(), percent: true } : { text, percent: false };
}

/** Separators inside one leading number: `1,234,567` or `1 234 567` -> `1234567`. Tuples like `(1,2)` are left alone. */
function dropThousandsSeparators(text: string): string {
  return text.replace(/^([+-]?)(\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+)(?=$|[^\d,])/, (_, sign: string, digits: string) => sign + digits.replace(/[, ]/g, ''));
}

/** The number the text states (a trailing unit dropped), or null. */
function numericValue(text: string, percent: boolean, meaning: 'fraction' | 'number'): string | null {
  const signed = text.replace(/^([+-])\s+/, '$1').replace(/^\+/, '');
  let value = parseNumber(signed.replace(/\s+/g, ''));
  if (!value) {
    const head = numericHead.exec(signed);
    if (!head || (head[2]!.trim() !== '' && !unitWords.test(head[2]!))) return null;
    value = parseNumber(head[1]!);
  }
  if (!value) return null;
  return formatRational(percent && meaning === 'fraction' ? divide(value, rational(100n)!)! : value);
}

/** Splits at commas outside any brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\') {
      index++;
      continue;
    }
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function normalizeElement(text: string, options: NormalizeOptions, meaning: 'fraction' | 'number'): string {
  const trimmed = text.trim();
  const { text: withoutPercent, percent } = stripPercent(trimmed);
  const number = numericValue(dropThousandsSeparators(withoutPercent), percent, meaning);
  if (number !== null) return number;
  return normalizeSymbolic(trimmed, options, meaning);
}

function normalizeSymbolic(text: string, options: NormalizeOptions, meaning: 'fraction' | 'number'): string {
  let result = text;
  // A whole-answer group: {5} -> 5.
  while (result.startsWith('{') && readGroup(result, 0)?.end === result.length) result = result.slice(1, -1).trim();
  const choice = /^\(([A-Ea-e])\)$/.exec(result);
  if (choice) return choice[1]!.toUpperCase();
  // Tuples, intervals and sets: each element on its own; the brackets stay (open and closed intervals differ).
  const bracketed = /^(\(|\[|\\\{)(.*)(\)|\]|\\\})$/s.exec(result);
  if (bracketed && splitTopLevel(bracketed[2]!).length > 1) {
    const open = bracketed[1] === '\\{' ? '{' : bracketed[1]!;
    const close = bracketed[3] === '\\}' ? '}' : bracketed[3]!;
    return `${open}${splitTopLevel(bracketed[2]!)
      .map((element) => normalizeElement(element, options, meaning))
      .join(',')}${close}`;
  }
  result = result.replace(/\binfinity\b|\binf\b|∞/gi, '\\infty').replace(/\s+/g, '');
  if (/^[A-Za-z]+$/.test(result)) result = result.toLowerCase();
  return result;
}

/**
 * The key that equivalent final answers share, so that votes group them: `0.5`, `1/2`,
 * `\frac{1}{2}`, `\dfrac12`, `\boxed{\frac12}` and `50\%` (when a percent means a fraction) all give
 * `1/2`; `1,000`, `$1000.00`, `1000 dollars`, `\text{1000 apples}` and `+1000` give `1000`. Numbers
 * are exact (rationals, so `0.3333` is not `1/3`); other answers are compared as text without
 * spacing and markup (`x = \sqrt{2}` gives `\sqrt{2}`; tuples element by element).
 *
 * @example
 * normalizeAnswer('\\dfrac12'); // '1/2'
 * normalizeAnswer('50\\%', { problem: 'What percent of the class is present?' }); // '50'
 */
export function normalizeAnswer(answer: string, options: NormalizeOptions = {}): string {
  const meaning = percentMeaning(options);
  let text = stripMarkup(answer);
  text = text
    .replace(/^[:\s]+/, '')
    .replace(/[.,;\s]+$/, '')
    .trim();
  text = dropShortLeftSide(text);
  return normalizeElement(text, options, meaning);
}
