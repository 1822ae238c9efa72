import { simulateBestOfN, simulateMcLabels } from '@reward-lens/eval';
import { writeReport } from '@reward-lens/eval/node';
import type { Command } from '../command.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption, seedRange } from '../parse-integer-option.js';
import { exitCodes } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { bestOfNTable, mcLabelsTable } from './simulate-tables.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';

const simulateUsage = `Usage:
  reward-lens simulate mc-labels [--seed <n>] [--json] [--report <file.html>]
  reward-lens simulate best-of-n [--seed <n>] [--json] [--report <file.html>]

The classic toy experiments of process supervision, reproducible by seed, in seconds.

  mc-labels   How good are Monte-Carlo labels? 8-step solutions, each step correct with
              probability c; from a clean prefix ending at step k a completion succeeds with
              probability c^(8-k), from a prefix with an error with probability 0.1. Every step
              of 4,000 solutions is labelled by the hard MC rule (correct if any of N rollouts
              succeeds), for c in {0.9, 0.7} and N in {1, 2, 4, ..., 64}: label accuracy and the
              false "correct" and false "wrong" rates.
  best-of-n   Aggregation in best-of-16. Solutions of 4-16 steps, each step wrong with
              probability 0.1; a flawed solution keeps a right answer with probability 0.15. A
              simulated PRM scores each step sigmoid(+1.5 before the first error, -0.5 from it
              on, + N(0, 1.5^2)); a simulated ORM scores +1.5 for a right answer, -0.5 otherwise,
              plus the same noise. The best of 16 by min, prod, mean, last and by the ORM, over
              3,000 problems: final-answer accuracy, process correctness, mean steps picked.

Options:
  --seed <n>            the random seed (default: 0)
  --json                print {"rows": [...]} instead of the table (best-of-n adds
                        "meanSampledSteps")
  --report <file.html>  also write a self-contained HTML report with the plots
  -h, --help            show this help
`;

const simulateOptions = {
  ...stringOptions('seed', 'report'),
  ...booleanOptions('json'),
  ...helpOption,
} as const;

/** `reward-lens simulate`: the toy experiments (Monte-Carlo labels, aggregation in best-of-N). */
export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'the classic toy experiments: mc-labels, best-of-n (reproducible by seed)',
  usage: simulateUsage,
  async run(args, streams) {
    const { values, positionals } = parseCommandLine(args, simulateOptions, simulateUsage, true);
    const [experiment, ...extra] = positionals;
    if (experiment === undefined) throw new UsageError('name an experiment: mc-labels or best-of-n', simulateUsage);
    if (experiment !== 'mc-labels' && experiment !== 'best-of-n')
      throw new UsageError(`unknown experiment ${JSON.stringify(experiment)}: mc-labels or best-of-n`, simulateUsage);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`, simulateUsage);
    const seed = parseIntegerOption('--seed', values.seed, seedRange, simulateUsage) ?? 0;
    if (experiment === 'mc-labels') {
      const rows = simulateMcLabels({ seed });
      await writeText(streams.stdout, values.json === true ? `${JSON.stringify({ rows })}\n` : mcLabelsTable(rows, seed));
      if (values.report !== undefined) {
        await writeReport(values.report, {
          title: `reward-lens simulate mc-labels (seed ${seed})`,
          summary: [],
          notes: [],
          simulations: { seed, mcLabels: rows },
        });
      }
    } else {
      const result = simulateBestOfN({ seed });
      const json = { rows: result.rows, meanSampledSteps: result.meanSampledSteps };
      await writeText(streams.stdout, values.json === true ? `${JSON.stringify(json)}\n` : bestOfNTable(result, seed));
      if (values.report !== undefined) {
        await writeReport(values.report, {
          title: `reward-lens simulate best-of-n (seed ${seed})`,
          summary: [],
          notes: [],
          simulations: { seed, bestOfN: result },
        });
      }
    }
    return exitCodes.success;
  },
};
