import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../test/support/run-main.js';

const run = promisify(execFile);

// Tests that start a process: the bin entry itself works (shebang file, imports, backend
// registration) the way `pnpm run example` runs it, and a closed stdout is its own status.
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

  it('exits 141 when its reader stops early (score ... | head -1), not 0: not every record was delivered', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'reward-lens-epipe-'));
    try {
      const example = JSON.parse(await readFile(packagePath('examples/solution.json'), 'utf8')) as Record<string, string>;
      const file = join(folder, 'big.jsonl');
      await writeFile(file, `${JSON.stringify(example)}\n`.repeat(3000));
      const child = spawn(packagePath('node_modules/.bin/tsx'), ['--conditions=@reward-lens/source', 'src/bin.ts', 'score', '--file', file, '-q'], {
        cwd: packagePath(''),
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      // Read the first line, then close the pipe, as head -1 does.
      const firstLine = await new Promise<string>((resolve) => {
        let text = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('\n')) {
            child.stdout!.destroy();
            resolve(text.slice(0, text.indexOf('\n')));
          }
        });
      });
      expect(JSON.parse(firstLine).stepScores).toHaveLength(4);
      const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      expect(status).toBe(141);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
