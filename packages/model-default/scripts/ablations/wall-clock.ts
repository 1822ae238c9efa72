import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const fileName = 'wall-seconds.json';

/** Wall-clock seconds the sessions of a run have spent so far (kept beside its checkpoints). */
export async function wallSecondsOf(folder: string): Promise<number> {
  const file = join(folder, fileName);
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as { seconds: number }).seconds : 0;
}

/** Runs `work`, adding its wall-clock time to the run's count whether it finishes or throws. */
export async function timed<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const seconds = (await wallSecondsOf(folder)) + (performance.now() - started) / 1000;
    await writeFile(join(folder, fileName), `${JSON.stringify({ seconds })}\n`);
  }
}
