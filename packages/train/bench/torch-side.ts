import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const python = '/usr/bin/python3';

/**
 * Debian's PyTorch for the comparison, installed when missing (`apt-get install -y
 * python3-torch libopenblas0-pthread`: without the threaded OpenBLAS torch falls back to the
 * reference BLAS). Returns why it is unavailable, or null.
 */
export function ensureTorch(): string | null {
  const probe = () => spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
  if (probe()) return null;
  console.log('installing python3-torch and libopenblas0-pthread with apt-get (once) ...');
  for (const command of [
    ['apt-get', ['update']],
    ['apt-get', ['install', '-y', 'python3-torch', 'libopenblas0-pthread']],
  ] as const) {
    const result = spawnSync(command[0], [...command[1]], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) return `${command[0]} ${command[1].join(' ')} failed: ${(result.stderr || String(result.error)).trim().split('\n').at(-1)}`;
  }
  return probe() ? null : `${python} still cannot import torch after installing python3-torch`;
}

/** A PyTorch process holding the same model and batch, timed step by step on request. */
export class TorchSide {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(spec: Record<string, unknown>, threads: number): Promise<{ side: TorchSide; info: Record<string, unknown> }> {
    // OpenBLAS reads these at start: a core type or cache size set for another machine slows it down (TOOLCHAIN.md).
    const env: NodeJS.ProcessEnv = { ...process.env, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads) };
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    const script = fileURLToPath(new URL('./torch_train_step.py', import.meta.url));
    const child = spawn(python, [script, JSON.stringify({ ...spec, threads })], { env });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const side = new TorchSide(child);
    const first = await side.#lines.next();
    if (first.done) throw new Error(`the PyTorch side exited: ${stderr.trim()}`);
    return { side, info: JSON.parse(first.value) as Record<string, unknown> };
  }

  /** Seconds of each of `count` training steps (`'run'`) or forward passes (`'forward'`). */
  async time(kind: 'run' | 'forward', count: number): Promise<number[]> {
    this.#child.stdin.write(`${kind} ${count}\n`);
    const line = await this.#lines.next();
    if (line.done) throw new Error('the PyTorch side exited');
    return (JSON.parse(line.value) as { seconds: number[] }).seconds;
  }

  close(): void {
    this.#child.stdin.end('quit\n');
  }
}
