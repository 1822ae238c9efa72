import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataPath } from '@reward-lens/test-data';
import { afterAll, describe, expect, it } from 'vitest';
import { readProcessBenchExamples } from './processbench-examples.js';

const scratch = mkdtempSync(join(tmpdir(), 'reward-lens-demo-processbench-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the build step that extracts the ProcessBench items', () => {
  it('reads the shared split, checks its published digest and keeps the attribution', () => {
    const shipped = readProcessBenchExamples(sharedDataPath('processbench/gsm8k.json'));
    expect(shipped.unavailable).toBeUndefined();
    expect(shipped.items).toHaveLength(6);
    expect(shipped).toMatchObject({ license: 'Apache-2.0', source: expect.stringMatching(/^QwenLM\/ProcessBench, dataset\/gsm8k\.json/) });
  });

  it('refuses a file that is not the published one, and builds without a missing one, saying why', () => {
    const altered = join(scratch, 'gsm8k.json');
    writeFileSync(altered, '[]');
    expect(() => readProcessBenchExamples(altered)).toThrow(/gsm8k\.json has sha256 [0-9a-f]{64}, not the published file's fb1c59df/);
    const missing = readProcessBenchExamples(join(scratch, 'absent.json'));
    expect(missing.items).toEqual([]);
    expect(missing.unavailable).toMatch(/not found at build time \(looked for .*absent\.json\)/);
  });
});
