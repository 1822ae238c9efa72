import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/main.js';

export interface RunOptions {
  /** Text (or raw bytes) on stdin. Without it stdin is an empty terminal, so nothing is read from it. */
  stdin?: string | Uint8Array;
  stdoutIsTerminal?: boolean;
  stderrIsTerminal?: boolean;
  columns?: number;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function collector(isTerminal: boolean, columns?: number) {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return { stream: Object.assign(stream, { isTTY: isTerminal, ...(columns !== undefined ? { columns } : {}) }), text: () => chunks.join('') };
}

/** Runs `main` in-process with string streams, as the CLI would run with these arguments. */
export async function runMain(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [options.stdin]), { isTTY: options.stdin === undefined });
  const stdout = collector(options.stdoutIsTerminal ?? false, options.columns);
  const stderr = collector(options.stderrIsTerminal ?? false);
  const exitCode = await main(argv, { stdin, stdout: stdout.stream, stderr: stderr.stream });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/** The JSON lines of a run's stdout, parsed. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A file of the CLI package (examples, package.json), by path from the package root. */
export function packagePath(path: string): string {
  return fileURLToPath(new URL(`../../${path}`, import.meta.url));
}

export const natalia = {
  problem:
    'Natalia sold clips to 48 of her friends in April, and then she sold half as many clips to her friends in May. How many clips did Natalia sell altogether in April and May?',
  solution: 'In April, Natalia sold 48 clips.\nIn May, she sold half as many: 48 / 2 = 24 clips.\nAltogether she sold 48 + 24 = 72 clips.\nThe answer is 72.',
} as const;
