import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const demoRoot = fileURLToPath(new URL('../', import.meta.url));

/** Runs a program without a shell; a non-zero exit or a timeout throws with the command line and all of its output. */
export function run(file: string, args: readonly string[], options: { cwd?: string; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd ?? repositoryRoot,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        timeout: options.timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${file} ${args.join(' ')} failed (${error.message})\n--- stdout\n${stdout}\n--- stderr\n${stderr}`, { cause: error }));
        else resolve(stdout);
      },
    );
  });
}

/**
 * Builds the demo as `npm run demo` does: turbo builds the packages it uses (cached when
 * unchanged), then Vite bundles the app from their published entry points into apps/demo/dist.
 */
export async function buildDemo(): Promise<string> {
  await run(`${repositoryRoot}node_modules/.bin/turbo`, ['run', 'build', '--filter=@reward-lens/demo', '--output-logs=errors-only'], { timeoutMs: 1_080_000 });
  return `${demoRoot}dist`;
}
