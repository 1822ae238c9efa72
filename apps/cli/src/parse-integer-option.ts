import { UsageError } from './usage-error.js';

/**
 * An integer flag value within `[minimum, maximum]`. Only plain decimal digits are taken:
 * `Number('1e3')` or `Number(' 8 ')` would be accepted by a looser check and surprise no one
 * until a seed silently changed.
 */
export function parseIntegerOption(flag: string, text: string, range: { minimum: number; maximum: number }, usage: string): number {
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.minimum || value > range.maximum) {
    throw new UsageError(`${flag} must be an integer from ${range.minimum} to ${range.maximum}, got ${JSON.stringify(text)}`, usage);
  }
  return value;
}

/** The tiny model's seed feeds a 32-bit generator: larger seeds would alias smaller ones. */
export const seedRange = { minimum: 0, maximum: 0xffff_ffff } as const;
