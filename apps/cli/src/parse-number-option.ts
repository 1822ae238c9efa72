import { UsageError } from './usage-error.js';

/**
 * A decimal number flag value (`0.8`, `1`, `.5`, `1e-3`) that passes `accepts`; `requirement`
 * says in words what is accepted. `Number('')` is 0 and `Number('0x1')` is 1: neither is taken.
 */
export function parseNumberOption(flag: string, text: string, accepts: (value: number) => boolean, requirement: string, usage: string): number {
  const value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || !accepts(value)) throw new UsageError(`${flag} must be ${requirement}, got ${JSON.stringify(text)}`, usage);
  return value;
}
