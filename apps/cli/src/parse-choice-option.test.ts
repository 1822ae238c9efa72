import { describe, expect, it } from 'vitest';
import { parseChoiceOption } from './parse-choice-option.js';
import { UsageError } from './usage-error.js';

describe('parseChoiceOption', () => {
  it('takes a listed value, and the fallback (or nothing) when the flag is not given', () => {
    expect(parseChoiceOption('--mode', 'binary', ['sweep', 'binary'], 'usage', 'sweep')).toBe('binary');
    expect(parseChoiceOption('--mode', undefined, ['sweep', 'binary'], 'usage', 'sweep')).toBe('sweep');
    expect(parseChoiceOption('--dtype', undefined, ['fp32', 'q8'], 'usage')).toBeUndefined();
  });

  it('refuses anything else with a usage error that lists the values', () => {
    const refuse = () => parseChoiceOption('--mode', 'Sweep', ['sweep', 'binary'], 'the help', 'sweep');
    expect(refuse).toThrow(UsageError);
    expect(refuse).toThrow('--mode must be one of sweep, binary, got "Sweep"');
  });
});
