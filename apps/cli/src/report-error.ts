import { RewardLensError } from '@reward-lens/core';
import { UsageError } from './usage-error.js';
import { escapeControlCharacters } from './text-layout.js';
import { writeText } from './write-text.js';

/**
 * `outputClosed`: the reader of stdout went away before everything was written (`... | head -1`);
 * not every record's result was delivered, so it is not success. 141 is what a shell reports for a
 * process stopped by SIGPIPE, which `set -o pipefail` scripts already expect.
 */
export const exitCodes = { success: 0, failure: 1, usage: 2, outputClosed: 141 } as const;

/**
 * Prints an error the way a user should see it and returns the exit code. Expected failures
 * (a bad command line, a reward-lens error) get one line and no stack; anything else is a bug,
 * and its stack is what a bug report needs.
 */
export async function reportError(error: unknown, stderr: NodeJS.WritableStream): Promise<number> {
  if (error instanceof UsageError) {
    await writeText(stderr, `reward-lens: ${error.message}\n\n${error.usage}`);
    return exitCodes.usage;
  }
  if (RewardLensError.isInstance(error)) {
    await writeText(stderr, `reward-lens: ${error.code}: ${escapeControlCharacters(error.message)}\n`);
    return exitCodes.failure;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  await writeText(stderr, `reward-lens: internal error (please report it): ${detail}\n`);
  return exitCodes.failure;
}
