import { describe, expect, it } from 'vitest';
import { experimentArgs } from '../src/lib/experiment-args.js';

describe('experimentArgs', () => {
  it('reads numbers, lists and ranges, with or without the "--" pnpm passes on', () => {
    for (const argv of [
      ['--n', '4,8', '--steps', '3-5', '--seed=2'],
      ['--', '--n', '4,8', '--steps', '3-5', '--seed=2'],
    ]) {
      const args = experimentArgs(argv, ['n', 'steps', 'seed', 'prm']);
      expect(args.list('n', [1])).toEqual([4, 8]);
      expect(args.range('steps', [1, 1])).toEqual([3, 5]);
      expect(args.number('seed', 0)).toBe(2);
      expect(args.text('prm') ?? 'default').toBe('default');
    }
    expect(experimentArgs(['--steps', '4'], ['steps']).range('steps', [1, 1])).toEqual([4, 4]);
  });

  it('refuses what it cannot read', () => {
    expect(() => experimentArgs(['--n', '4,x'], ['n']).list('n', [])).toThrow(/comma-separated list/);
    expect(() => experimentArgs(['--seed', 'two'], ['seed']).number('seed', 0)).toThrow(/must be a number/);
    expect(() => experimentArgs(['--steps', '3-'], ['steps']).range('steps', [1, 1])).toThrow(/a range like 3-6/);
    expect(() => experimentArgs(['--typo', '1'], ['n'])).toThrow();
  });
});
