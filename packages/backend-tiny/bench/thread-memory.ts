import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const probe = fileURLToPath(new URL('./thread-memory-probe.ts', import.meta.url));

/** Resident memory of the 42M model on 1, 2 and 4 threads, each count in a process of its own. */
export function compareThreadMemory(): void {
  console.log('\nresident memory, 42M model (each thread count in its own process; workers share the weights):');
  for (const threads of [1, 2, 4]) {
    const result = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, probe, '--threads', String(threads)], {
      encoding: 'utf8',
      env: process.env,
    });
    if (result.status !== 0) throw new Error(`the memory probe failed: ${result.stderr}`);
    const { parameters, afterLoad, afterForward } = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0).padStart(5)} MB`;
    console.log(
      `  ${threads} thread${threads === 1 ? ' ' : 's'}  after load ${megabytes(afterLoad!)} (${(afterLoad! / parameters!).toFixed(1)} bytes/parameter)  after a forward of 8 × 256 ${megabytes(afterForward!)}`,
    );
  }
}
