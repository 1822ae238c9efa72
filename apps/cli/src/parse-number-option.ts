import { UsageError } from './usage-error.js';

type Accepts = (value: number) => boolean;

/**
 * A decimal number flag value (`0.8`, `1`, `.5`, `1e-3`) that passes `accepts`; `requirement`
 * says in words what is accepted; `undefined` for a flag not given (so a default reads
 * `parseNumberOption(...) ?? 0.5`). `Number('')` is 0 and `Number('0x1')` is 1: neither is taken.
 */
export function parseNumberOption(flag: string, text: string, accepts: Accepts, requirement: string, usage: string): number;
export function parseNumberOption(flag: string, text: string | undefined, accepts: Accepts, requirement: string, usage: string): number | undefined;
export function parseNumberOption(flag: string, text: string | undefined, accepts: Accepts, requirement: string, usage: string): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || !accepts(value)) throw new UsageError(`${flag} must be ${requirement}, got ${JSON.stringify(text)}`, usage);
  return value;
}
