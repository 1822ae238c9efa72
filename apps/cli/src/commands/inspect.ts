import { readRecordsFile } from '@reward-lens/train';
import { inspectSolution, probeBattery, type InspectOptions } from '@reward-lens/eval';
import { writeInspectPage } from '@reward-lens/eval/node';
import type { Command } from '../command.js';
import { formatInspection } from '../inspect/format-inspection.js';
import { loadProcessRM } from '../load-process-rm.js';
import { modelOptions, modelOptionsHelp, parseModelChoice } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { exitCodes } from '../report-error.js';
import { unescapeDelimiter } from '../score/unescape-delimiter.js';
import { parseStepDetectionChoice, stepDetectionOptions, stepDetectionOptionsHelp } from '../step-detection-options.js';
import { outputWidth } from '../text-layout.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';

const inspectUsage = `Usage:
  reward-lens inspect --problem <text> --solution <text> [options]
  reward-lens inspect --problem <text> --step <text> --step <text> ... [options]

Looks inside a PRM's reading of one solution: the reward head read after every layer at each
step (LINEAR_READOUT; the last layer is the model's own step scores), and each step's score
attributed to the tokens before it by gradient × input and by integrated gradients (GRADIENTS).
With --probe-data, per-layer linear probes for step correctness, fitted and measured on labelled
solutions, beside the reward head read after the same layers.

Input:
  --problem <text>          the problem statement
  --solution <text>         the solution, split into steps at the delimiter (or by the model's
                            learned step detector)
  --step <text>             one step; repeat in order instead of --solution
  --delimiter <text>        what separates steps (default: the recipe's); \\n, \\t, \\r, \\\\ interpreted

Model:
${modelOptionsHelp}
${stepDetectionOptionsHelp}

Inspection:
  --layers <list>           layers read, e.g. 0,4,8 (default: every one)
  --ig-steps <n>            integrated gradients' points on the path (default 32)
  --baseline <b>            pad (default: every token the padding token's embedding) or zero
  --top <n>                 top tokens shown per step and method (default 5)
  --probe-data <file>       labelled solutions (ProcessBench, TRL or organism JSONL) for the
                            per-layer correctness probes
  --probe-limit <n>         at most this many of them (default 400)
  --probe-held-out <x>      share of them held out to measure the probes (default 0.3)
  --html <file>             also write a self-contained page: the layer × step heatmap, the
                            per-layer curves, the attributions over the text, the probe curves
  --json                    print everything as one JSON object instead of the table
  -h, --help                show this help

Examples:
  reward-lens inspect --problem 'Compute (2+2)*3-5.' --solution $'First, 2+2=4.\\nThen, 4*3=12.\\nFinally, 12-5=7.'
  reward-lens inspect --model my-prm --problem "$(cat problem.txt)" --solution "$(cat solution.txt)" --html inspect.html
  reward-lens inspect --model my-prm --problem ... --solution ... --probe-data organism.jsonl --html inspect.html
`;

const inspectOptions = {
  ...stringOptions('problem', 'solution'),
  step: { type: 'string', multiple: true },
  ...stringOptions('delimiter'),
  ...modelOptions,
  ...stepDetectionOptions,
  ...stringOptions('layers', 'ig-steps', 'baseline', 'top', 'probe-data', 'probe-limit', 'probe-held-out', 'html'),
  ...booleanOptions('json'),
  ...helpOption,
} as const;

/** `reward-lens inspect`: the per-layer readout and the token attributions of one solution, in the terminal and as a page. */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'look inside the reading of one solution: reward head per layer, token attributions, probes',
  usage: inspectUsage,
  async run(args, streams) {
    const { values } = parseCommandLine(args, inspectOptions, inspectUsage);
    if (values.problem === undefined) throw new UsageError('--problem is required', inspectUsage);
    const steps = values.step ?? [];
    if ((values.solution === undefined) === (steps.length === 0)) throw new UsageError('give --solution <text> or one --step <text> per step', inspectUsage);
    const input = values.solution !== undefined ? { problem: values.problem, solution: values.solution } : { problem: values.problem, steps };
    const integer = (flag: 'ig-steps' | 'top' | 'probe-limit', maximum: number) =>
      parseIntegerOption(`--${flag}`, values[flag], { minimum: 1, maximum }, inspectUsage);
    const baseline = values.baseline ?? 'pad';
    if (baseline !== 'pad' && baseline !== 'zero') throw new UsageError(`--baseline must be pad or zero, got ${JSON.stringify(baseline)}`, inspectUsage);
    const layers = values.layers?.split(',').map((part) => parseIntegerOption('--layers', part.trim(), { minimum: 0, maximum: 10_000 }, inspectUsage));
    const heldOut =
      parseNumberOption('--probe-held-out', values['probe-held-out'], (value) => value > 0 && value < 1, 'a number between 0 and 1', inspectUsage) ?? 0.3;
    if (values.delimiter === '') throw new UsageError('--delimiter must not be empty', inspectUsage);
    const choice = parseModelChoice(values, inspectUsage);
    const detection = parseStepDetectionChoice(values, inspectUsage);
    const probeRecords = values['probe-data'] === undefined ? undefined : await readRecordsFile(values['probe-data'], 'the probe data');

    const prm = await loadProcessRM({ ...choice, ...detection, ...(values.delimiter !== undefined ? { delimiter: unescapeDelimiter(values.delimiter) } : {}) });
    try {
      const options: InspectOptions = {
        baseline,
        ...(layers ? { layers } : {}),
        ...(integer('ig-steps', 4096) !== undefined ? { integrationSteps: integer('ig-steps', 4096)! } : {}),
        ...(integer('top', 1000) !== undefined ? { top: integer('top', 1000)! } : {}),
      };
      if (probeRecords !== undefined) {
        const limit = integer('probe-limit', 1e9) ?? 400;
        const records = probeRecords.slice(0, limit);
        const battery = await probeBattery(prm, records, { heldOutFraction: heldOut, ...(layers ? { layers } : {}) });
        options.probes = { ...battery, data: `${records.length} solutions of ${values['probe-data']}` };
      }
      const data = await inspectSolution(prm, input, options);
      if (values.html !== undefined) await writeInspectPage(values.html, data);
      if (values.json) await writeText(streams.stdout, `${JSON.stringify(data)}\n`);
      else await writeText(streams.stdout, formatInspection(data, outputWidth(streams.stdout)) + (values.html !== undefined ? `wrote ${values.html}\n` : ''));
      return exitCodes.success;
    } finally {
      await prm.dispose();
    }
  },
};
