import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linuxGpuDevicePresent } from './gpu-device-files.js';

const roots: string[] = [];
function deviceRoot(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'reward-lens-dev-'));
  roots.push(root);
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe.skipIf(process.platform !== 'linux')('linuxGpuDevicePresent (Linux device files)', () => {
  it('finds no GPU where there are only terminals and card nodes without a render node', async () => {
    expect(await linuxGpuDevicePresent(deviceRoot(['null', 'tty0', 'nvidiactl', 'dri/card0']))).toBe(false);
    expect(await linuxGpuDevicePresent(join(deviceRoot([]), 'missing'))).toBe(false);
  });

  it.each([['dri/renderD128'], ['nvidia0'], ['dxg']])('finds a GPU from %s', async (file) => {
    expect(await linuxGpuDevicePresent(deviceRoot(['null', file]))).toBe(true);
  });
});
