import { parseNumberOption } from './parse-number-option.js';

/**
 * `--temperature` (0 or more) and `--top-p` (above 0, at most 1), as `generate` and the search
 * policies sample: each flag not given is the caller's default.
 */
export function parseSamplingOptions(
  values: { temperature?: string; 'top-p'?: string },
  defaults: { temperature: number; topP: number },
  usage: string,
): { temperature: number; topP: number } {
  return {
    temperature: parseNumberOption('--temperature', values.temperature, (value) => value >= 0, 'a number, 0 or more', usage) ?? defaults.temperature,
    topP: parseNumberOption('--top-p', values['top-p'], (value) => value > 0 && value <= 1, 'a number above 0 and at most 1', usage) ?? defaults.topP,
  };
}
