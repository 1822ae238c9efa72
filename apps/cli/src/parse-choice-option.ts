import { UsageError } from './usage-error.js';

/**
 * A flag that names one of `allowed` (`--method best-of-n`); `fallback` when the flag is not
 * given. Anything else is a usage error that lists what the flag takes.
 *
 * @example
 * const mode = parseChoiceOption('--mode', values.mode, ['sweep', 'binary'], usage, 'sweep');
 */
export function parseChoiceOption<const Value extends string>(
  flag: string,
  text: string | undefined,
  allowed: readonly Value[],
  usage: string,
  fallback: Value,
): Value;
export function parseChoiceOption<const Value extends string>(
  flag: string,
  text: string | undefined,
  allowed: readonly Value[],
  usage: string,
): Value | undefined;
export function parseChoiceOption<const Value extends string>(
  flag: string,
  text: string | undefined,
  allowed: readonly Value[],
  usage: string,
  fallback?: Value,
): Value | undefined {
  if (text === undefined) return fallback;
  if (!allowed.includes(text as Value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(text)}`, usage);
  return text as Value;
}
