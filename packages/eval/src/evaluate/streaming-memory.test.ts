import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('streaming evaluation', () => {
  it('evaluates a 100,000-item JSONL with a heap that does not grow with the input', async () => {
    const probe = fileURLToPath(new URL('../../test/support/streaming-memory-probe.ts', import.meta.url));
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--conditions=@reward-lens/source', probe, '100000', '30000,60000,100000'],
      {
        maxBuffer: 1 << 20,
      },
    );
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { heap: Record<string, number>; items: number; binned: boolean };
    expect(result.items).toBe(100_000);
    expect(result.binned).toBe(true);
    const [at30k, at60k, at100k] = [result.heap['30000']!, result.heap['60000']!, result.heap['100000']!];
    // The input is ~12 MB of JSON and ~400,000 steps; holding even the scores (4 bytes each) would add
    // 1.1 MB between the checkpoints and holding the items tens of MB. Allow 1 MB of noise.
    const growth = Math.max(at60k, at100k) - at30k;
    console.log(
      `heap after GC: ${(at30k / 2 ** 20).toFixed(1)} MB at 30k items, ${(at60k / 2 ** 20).toFixed(1)} at 60k, ${(at100k / 2 ** 20).toFixed(1)} at 100k`,
    );
    expect(growth).toBeLessThan(2 ** 20);
  }, 240_000);
});
