import type { CliStreams } from './cli-streams.js';

/** One `reward-lens <name>` command: its help text and what it does. `run` returns the exit code. */
export interface Command {
  name: string;
  /** One line for the top-level command list. */
  summary: string;
  /** The full help, printed by `--help` and after a usage error. Ends with a newline. */
  usage: string;
  run(args: readonly string[], streams: CliStreams): Promise<number>;
}
