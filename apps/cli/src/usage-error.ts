/**
 * A command line the CLI cannot act on (an unknown flag, a missing value, conflicting inputs).
 * It is printed with the command's usage and exits with code 2; it never reaches the user as a
 * stack trace. Kept apart from core's `RewardLensError`, which reports failures of the work itself.
 */
export class UsageError extends Error {
  /** The usage text of the command the line was meant for. */
  readonly usage: string;

  constructor(message: string, usage: string) {
    super(message);
    this.name = 'UsageError';
    this.usage = usage;
  }
}
