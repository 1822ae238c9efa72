import { UsageError } from './usage-error.js';

type Range = { minimum: number; maximum: number };

/**
 * An integer flag value within `[minimum, maximum]`; `undefined` for a flag not given (so a
 * default reads `parseIntegerOption(...) ?? 8`). Only plain decimal digits are taken:
 * `Number('1e3')` or `Number(' 8 ')` would be accepted by a looser check and surprise no one
 * until a seed silently changed.
 */
export function parseIntegerOption(flag: string, text: string, range: Range, usage: string): number;
export function parseIntegerOption(flag: string, text: string | undefined, range: Range, usage: string): number | undefined;
export function parseIntegerOption(flag: string, text: string | undefined, range: Range, usage: string): number | undefined {
  if (text === undefined) return undefined;
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.minimum || value > range.maximum) {
    throw new UsageError(`${flag} must be an integer from ${range.minimum} to ${range.maximum}, got ${JSON.stringify(text)}`, usage);
  }
  return value;
}

/** The tiny model's seed feeds a 32-bit generator: larger seeds would alias smaller ones. */
export const seedRange = { minimum: 0, maximum: 0xffff_ffff } as const;
