import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from './testing/run-main.js';

const run = promisify(execFile);

// The one test that starts a process: it proves the bin entry itself works (shebang file, imports,
// backend registration) the way `pnpm run example` runs it.
describe('bin', () => {
  it('scores the bundled example through tsx, as the example script does', async () => {
    const { stdout } = await run(
      packagePath('node_modules/.bin/tsx'),
      ['--conditions=@reward-lens/source', 'src/bin.ts', 'score', '--file', 'examples/solution.json', '--json'],
      {
        cwd: packagePath(''),
        timeout: 30_000,
      },
    );
    const record = JSON.parse(stdout) as { outcome: number; stepScores: number[]; predictedErrorStep: number };
    expect(record.stepScores).toHaveLength(4);
    expect(record.outcome).toBe(record.stepScores[3]);
    expect(record.predictedErrorStep).toBe(2);
  });
});
