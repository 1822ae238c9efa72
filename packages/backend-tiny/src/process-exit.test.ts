import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../test/support/score-and-exit.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

/** Runs the script; returns the milliseconds between its `scored` and its exit, and its exit code. */
function run(...args: string[]): Promise<{ lingered: number; code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, '--conditions=@reward-lens/source', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let scoredAt = Number.NaN;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      if (output.includes('scored') && Number.isNaN(scoredAt)) scoredAt = performance.now();
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ lingered: performance.now() - scoredAt, code, output });
    });
  });
}

describe('a process that scored on worker threads', () => {
  it('exits at once after dispose(), and without it too: idle workers hold no handle open', async () => {
    for (const args of [[], ['--keep']]) {
      const { lingered, code, output } = await run(...args);
      expect(code, output).toBe(0);
      expect(output).toContain('scored');
      expect(lingered, `${args.join(' ')} lingered ${lingered} ms`).toBeLessThan(2_000);
    }
  });
});
