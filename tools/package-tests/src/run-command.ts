import { execFile } from 'node:child_process';

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program without a shell and resolves with its exit code and output, whatever the code
 * (the caller asserts on it). Output is kept whole: a failure message should show all of it.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (error && typeof code !== 'number') {
          reject(new Error(`${file} ${args.join(' ')} did not finish (${error.message})\n${stdout}\n${stderr}`, { cause: error }));
          return;
        }
        resolve({ exitCode: typeof code === 'number' ? code : 0, stdout, stderr });
      },
    );
  });
}

/** Runs a program and returns its output; a non-zero exit throws with the command line and all of its output. */
export async function runChecked(file: string, args: readonly string[], options: Parameters<typeof runCommand>[2]): Promise<CommandResult> {
  const result = await runCommand(file, args, options);
  if (result.exitCode !== 0) {
    throw new Error(`${file} ${args.join(' ')} exited with ${result.exitCode} in ${options.cwd}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}
