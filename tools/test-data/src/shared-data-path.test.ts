import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from './shared-data-path.js';

describe('sharedDataPath', () => {
  it('resolves a file of the shared data to an absolute path that exists', () => {
    const path = sharedDataPath('stories260k/tok512.bin');
    expect(existsSync(path)).toBe(true);
    expect(path).toMatch(/^\/.*\/stories260k\/tok512\.bin$/);
  });

  it('names the missing file and where it was looked for', () => {
    expect(() => sharedDataPath('no-such-folder/no-such-file.bin')).toThrow(/shared test data file is missing: .*no-such-folder\/no-such-file\.bin/);
  });
});
