import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { debianPython as python, torchEnvironment } from '@reward-lens/bench-harness';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A PyTorch process holding the same model and batch, timed step by step on request. */
export class TorchSide {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(spec: Record<string, unknown>, threads: number): Promise<{ side: TorchSide; info: Record<string, unknown> }> {
    const env = torchEnvironment(threads);
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
