import { BackendResolutionError, registeredBackends } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { ProcessRM } from './process-rm.js';

describe('ProcessRM.fromTiny without backend-tiny registered', () => {
  it('is refused with a resolution error that says which entry to import (core imports no backend)', async () => {
    expect(registeredBackends().map((registration) => registration.name)).not.toContain('tiny');
    const refusal = ProcessRM.fromTiny({ seed: 0 });
    await expect(refusal).rejects.toBeInstanceOf(BackendResolutionError);
    await expect(ProcessRM.fromTiny({ seed: 0 })).rejects.toThrow('import "@reward-lens/backend-tiny/register" first');
  });

  it('still checks the seed before anything else', async () => {
    await expect(ProcessRM.fromTiny({ seed: -1 })).rejects.toThrow('seed must be an integer');
  });
});

describe("core's source", () => {
  it('imports no backend package, statically or dynamically', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const root = new URL('../', import.meta.url);
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(50);
    const importing = [];
    for (const file of files) {
      const text = await readFile(new URL(file, root), 'utf8');
      if (/from '@reward-lens\/backend-|import\(\s*(?!'#)/.test(text)) importing.push(file);
    }
    expect(importing).toEqual([]);
  });
});
