import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defaultModelFolder } from '../src/index.js';

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

// The comparison itself trains an ORM for an hour; this runs the script's whole path on a tiny
// budget, with the default PRM's folder standing in for the ORM (so both columns are the same model).
describe('process-vs-outcome', () => {
  it('scores the policy samples with both models and prints the best-of-N table', { timeout: 240_000 }, async () => {
    const { stdout } = await run(
      join(packageRoot, 'node_modules/.bin/tsx'),
      ['--conditions=@reward-lens/source', 'scripts/process-vs-outcome.ts', '--orm', defaultModelFolder, '--problems', '3', '--n', '2'],
      { cwd: packageRoot, timeout: 220_000 },
    );
    expect(stdout).toMatch(/^3 organism problems \(test seed 1002\), 2 samples each/);
    expect(stdout).toContain('| rule | N | final-answer accuracy | process correct | right answer, flawed process | mean steps |');
    const rows = stdout.split('\n').filter((line) => /^\| (ORM|PRM)/.test(line));
    expect(rows.filter((row) => row.startsWith('| ORM (outcome score) |')).map((row) => row.split('|')[2]!.trim())).toEqual(['1', '2']);
    expect(rows.some((row) => row.startsWith('| PRM min | 2 |'))).toBe(true);
    for (const row of rows) for (const cell of row.split('|').slice(3, 6)) expect(cell.trim()).toMatch(/^\d+\.\d%$/);
    expect(stdout).toMatch(/random pick: final-answer accuracy \d+\.\d%/);
  });
});
