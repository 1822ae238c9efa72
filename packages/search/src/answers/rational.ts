/** An exact rational number `numerator / denominator`, reduced, with a positive denominator. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(numerator: bigint, denominator: bigint = 1n): Rational | null {
  if (denominator === 0n) return null;
  const sign = denominator < 0n ? -1n : 1n;
  const divisor = gcd(numerator, denominator) || 1n;
  return { numerator: (sign * numerator) / divisor, denominator: (sign * denominator) / divisor };
}

export function multiply(left: Rational, right: Rational): Rational {
  return rational(left.numerator * right.numerator, left.denominator * right.denominator)!;
}

export function divide(left: Rational, right: Rational): Rational | null {
  return rational(left.numerator * right.denominator, left.denominator * right.numerator);
}

export function negate(value: Rational): Rational {
  return { numerator: -value.numerator, denominator: value.denominator };
}

/** Exponents beyond this are not expanded into exact integers (1e400 would be a 1,300-bit number; 1e100000 would hang). */
const maxExponent = 400;

/** `10^exponent` as a rational, or null when the exponent is out of range. */
export function powerOfTen(exponent: number): Rational | null {
  if (!Number.isInteger(exponent) || Math.abs(exponent) > maxExponent) return null;
  const power = 10n ** BigInt(Math.abs(exponent));
  return exponent >= 0 ? rational(power) : rational(1n, power);
}

/** A plain decimal (`-12.50`, `.5`, `7.`) as an exact rational; null when the text is not one. */
export function parseDecimal(text: string): Rational | null {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  if (whole.length + fraction.length > maxExponent) return null;
  const value = rational(BigInt(`${whole || '0'}${fraction}`), 10n ** BigInt(fraction.length))!;
  return sign === '-' ? negate(value) : value;
}

/** `p` for integers, `p/q` otherwise: the key equal numbers share. */
export function formatRational(value: Rational): string {
  return value.denominator === 1n ? value.numerator.toString() : `${value.numerator}/${value.denominator}`;
}

export function rationalsEqual(left: Rational, right: Rational): boolean {
  return left.numerator === right.numerator && left.denominator === right.denominator;
}

/** The nearest double (for tolerances only; keys stay exact). */
export function toNumber(value: Rational): number {
  return Number(value.numerator) / Number(value.denominator);
}
