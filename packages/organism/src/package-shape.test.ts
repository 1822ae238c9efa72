import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = fileURLToPath(new URL('.', import.meta.url));

describe('the package', () => {
  it('is browser-safe: no Node built-in and no core internals in its source', async () => {
    const files = (await readdir(source)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = await readFile(`${source}${file}`, 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
      expect(
        imports.filter((name) => name.startsWith('node:') || !(name.startsWith('.') || name === '@reward-lens/core')),
        file,
      ).toEqual([]);
    }
  });
});
