import type { CliStreams } from './cli-streams.js';
import type { Command } from './command.js';
import { capsCommand } from './commands/caps.js';
import { convertCommand } from './commands/convert.js';
import { evalCommand } from './commands/eval.js';
import { exportCommand } from './commands/export.js';
import { generateCommand } from './commands/generate.js';
import { inspectCommand } from './commands/inspect.js';
import { organismCommand } from './commands/organism.js';
import { labelCommand } from './commands/label.js';
import { recipesCommand } from './commands/recipes.js';
import { rerankCommand } from './commands/rerank.js';
import { scoreCommand } from './commands/score.js';
import { trainCommand } from './commands/train.js';
import { trainDetectorCommand } from './commands/train-detector.js';
import { simulateCommand } from './commands/simulate.js';
import { searchCommand } from './commands/search.js';
import { serveCommand } from './commands/serve.js';
import { packageVersion } from './package-version.js';
import { wantsHelp } from './parse-command-line.js';
import { exitCodes, reportError } from './report-error.js';
import { UsageError } from './usage-error.js';
import { writeText } from './write-text.js';

const commands: readonly Command[] = [
  scoreCommand,
  serveCommand,
  evalCommand,
  simulateCommand,
  rerankCommand,
  searchCommand,
  labelCommand,
  inspectCommand,
  capsCommand,
  recipesCommand,
  generateCommand,
  convertCommand,
  exportCommand,
  organismCommand,
  trainCommand,
  trainDetectorCommand,
];

function topLevelUsage(): string {
  const nameWidth = Math.max(...commands.map((command) => command.name.length));
  const list = commands.map((command) => `  ${command.name.padEnd(nameWidth)}  ${command.summary}`).join('\n');
  return `reward-lens: score reasoning steps with a process reward model: the default PRM (trained on
organism word problems), a Hugging Face-style model folder, or the seeded tiny model

Usage:
  reward-lens <command> [options]
  reward-lens <command> --help

Commands:
${list}

Options:
  -h, --help     show this help
  --version      print the version

Exit status: 0 success, 1 an error (or some records failed), 2 a usage error.
`;
}

/**
 * Runs the `reward-lens` command line and resolves to its exit code. It never calls
 * `process.exit` and reads and writes only the given streams, so it can be embedded and tested
 * in-process.
 *
 * @example
 * const exitCode = await main(['score', '--file', 'examples/solution.json', '--json'], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 */
export async function main(argv: readonly string[], streams: CliStreams): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined) throw new UsageError('no command given', topLevelUsage());
    if (first === '--help' || first === '-h') {
      await writeText(streams.stdout, topLevelUsage());
      return exitCodes.success;
    }
    if (first === '--version') {
      await writeText(streams.stdout, `${packageVersion()}\n`);
      return exitCodes.success;
    }
    if (first === 'help') {
      const topic = commands.find((command) => command.name === rest[0]);
      if (rest[0] !== undefined && topic === undefined) throw new UsageError(`unknown command ${JSON.stringify(rest[0])}`, topLevelUsage());
      await writeText(streams.stdout, topic?.usage ?? topLevelUsage());
      return exitCodes.success;
    }
    const command = commands.find((candidate) => candidate.name === first);
    if (command === undefined) {
      throw new UsageError(first.startsWith('-') ? `unknown option ${first}` : `unknown command ${JSON.stringify(first)}`, topLevelUsage());
    }
    if (wantsHelp(rest)) {
      await writeText(streams.stdout, command.usage);
      return exitCodes.success;
    }
    return await command.run(rest, streams);
  } catch (error) {
    return reportError(error, streams.stderr);
  }
}
