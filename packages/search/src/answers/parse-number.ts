import { divide, multiply, negate, parseDecimal, powerOfTen, type Rational } from './rational.js';

/** `\frac{a}{b}` (after dfrac/tfrac and `\frac12` were rewritten) with integer or decimal parts. */
const latexFraction = /^\\frac\{([^{}]+)\}\{([^{}]+)\}$/;
/** `a/b` of plain numbers. */
const slashFraction = /^([^/]+)\/([^/]+)$/;
/** `1.5e3`, `2E-4`. */
const eNotation = /^([+-]?(?:\d+\.?\d*|\.\d+))[eE]([+-]?\d+)$/;
/** `1.5\times10^{3}`, `3\cdot10^5`, `2*10^-3`. */
const timesPowerOfTen = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:\\times|\\cdot|\*|×)10\^(?:\{([+-]?\d+)\}|([+-]?\d+))$/;

/**
 * An exact value for text that is a plain number once normalised (no spaces, no `$`, no
 * separators): an integer or decimal, a fraction of two such numbers (LaTeX or slash), scientific
 * notation, each with an optional sign (also in front of a fraction: `-\frac{1}{2}`). Null otherwise.
 */
export function parseNumber(text: string): Rational | null {
  if (text.startsWith('-')) {
    const inner = parseUnsigned(text.slice(1));
    return inner ? negate(inner) : null;
  }
  return parseUnsigned(text.startsWith('+') ? text.slice(1) : text);
}

function parseUnsigned(text: string): Rational | null {
  const decimal = parseDecimal(text);
  if (decimal) return decimal;
  const fraction = latexFraction.exec(text) ?? slashFraction.exec(text);
  if (fraction) {
    const top = parseNumber(fraction[1]!);
    const bottom = parseNumber(fraction[2]!);
    return top && bottom ? divide(top, bottom) : null;
  }
  const scientific = eNotation.exec(text);
  if (scientific) return scaled(scientific[1]!, Number(scientific[2]));
  const times = timesPowerOfTen.exec(text);
  if (times) return scaled(times[1]!, Number(times[2] ?? times[3]));
  return null;
}

function scaled(mantissa: string, exponent: number): Rational | null {
  const value = parseDecimal(mantissa);
  const power = powerOfTen(exponent);
  return value && power ? multiply(value, power) : null;
}
