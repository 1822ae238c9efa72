import { spawnSync } from 'node:child_process';

/** Debian's Python, where apt installs python3-torch (another python3 may come first on PATH). */
export const debianPython = '/usr/bin/python3';

/**
 * Debian's PyTorch for a side-by-side comparison, installed when missing (`apt-get install -y
 * python3-torch libopenblas0-pthread`: without the threaded OpenBLAS torch falls back to the
 * reference BLAS). Returns why it is unavailable, or null.
 */
export function ensureTorch(): string | null {
  const probe = () => spawnSync(debianPython, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
  if (probe()) return null;
  console.log('installing python3-torch and libopenblas0-pthread with apt-get (once) ...');
  for (const command of [
    ['apt-get', ['update']],
    ['apt-get', ['install', '-y', 'python3-torch', 'libopenblas0-pthread']],
  ] as const) {
    const result = spawnSync(command[0], [...command[1]], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) return `${command[0]} ${command[1].join(' ')} failed: ${(result.stderr || String(result.error)).trim().split('\n').at(-1)}`;
  }
  return probe() ? null : `${debianPython} still cannot import torch after installing python3-torch`;
}

/** The environment for a torch process on `threads` threads: OpenBLAS's core type or cache size set for another machine slows it down (TOOLCHAIN.md). */
export function torchEnvironment(threads: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads) };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  return env;
}
