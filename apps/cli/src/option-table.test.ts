import { describe, expect, it } from 'vitest';
import { booleanOptions, helpOption, quietOption, stringOptions } from './option-table.js';
import { parseCommandLine } from './parse-command-line.js';

describe('option tables', () => {
  it('declare each name with its type, as a table written out would', () => {
    expect({ ...stringOptions('data', 'max-steps'), ...booleanOptions('force'), ...quietOption, ...helpOption }).toEqual({
      data: { type: 'string' },
      'max-steps': { type: 'string' },
      force: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    });
  });

  it('parse as parseArgs parses the written-out table', () => {
    const table = { ...stringOptions('data'), ...booleanOptions('force'), ...quietOption } as const;
    const { values } = parseCommandLine(['--data', 'a.jsonl', '--force', '-q'], table, 'usage');
    expect(values).toEqual({ data: 'a.jsonl', force: true, quiet: true });
    expect(() => parseCommandLine(['--force=yes'], table, 'usage')).toThrow(/--force/);
  });
});
