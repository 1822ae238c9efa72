import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { InvalidInputError } from '@reward-lens/core';
import {
  createOrganism,
  type ErrorKind,
  errorKinds,
  type Operation,
  organismFormats,
  organismRecords,
  parseOperationName,
  singleErrorKinds,
  type TrlLabelRule,
} from '@reward-lens/organism';
import type { Command } from '../command.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption, seedRange } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { exitCodes } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

const organismUsage = `Usage:
  reward-lens organism [--n <count>] [--seed <n>] [--format processbench|trl|organism] [--out <file>] [knobs]

Writes problems of the model organism (GSM8K-style word problems with step-by-step solutions,
some with errors of known kinds at known steps) as JSON lines. Deterministic: item i of a seed
is the same whatever --n. Every label comes from construction and agrees with the organism's
rule-based verifier.

Output:
  --n <count>                items to write, or pairs with --pairs (default: 1000)
  --from <index>             index of the first item (default: 0); disjoint ranges of one seed
                             are disjoint samples
  --seed <n>                 seed, 0 to 4294967295 (default: 0)
  --format <name>            processbench (default): id, generator, problem, steps, label (0-based
                               first wrong step, -1 for none), final_answer_correct
                             trl: prompt, completions, labels (one boolean per step)
                             organism: every field of the ground truth (verdicts per step,
                               errorKind, answer, finalAnswer, ...)
  --labels <rule>            TRL labels: prefix (default; true up to the first wrong step, false
                             from it on) or step (each step's own verdict)
  --pairs                    matched pairs: per pair two records, the correct solution and the
                             same one with one error at step pair_step (the steps before it are
                             the same text), with pair_id, pair_role (clean or flawed), pair_step
                             and error_kind added
  --out <file>               write to this file (and a summary to stderr) instead of stdout

Knobs:
  --steps <min-max>          steps of a correct solution, the answer step included, within 2-10;
                             one number for a fixed length (default: 3-8)
  --max-number <n>           every number in problems and solutions is at most this, 10 or more
                             (default: 100)
  --ops <list>               operations, comma-separated: + - * / (also × − ÷, or add, subtract,
                             multiply, divide); a list starting with - needs --ops=-,... (default:
                             all four)
  --correct-fraction <f>     share of correct solutions, 0 to 1 (default: 0.5)
  --errors <list>            error kinds, comma-separated (default: all): ${errorKinds.join(', ')}
  --distractors <p>          chance that a problem has a number the answer does not need
                             (default: 0.3)
  -h, --help                 show this help

Examples:
  reward-lens organism --n 1000 --seed 0 > organism.jsonl
  reward-lens organism --n 5000 --seed 1 --format trl --steps 2-4 --max-number 20 --out train.jsonl
  reward-lens organism --n 500 --seed 2 --pairs --errors wrong-result,wrong-copy
`;

const organismOptions = {
  ...stringOptions('n', 'from', 'seed', 'format', 'labels'),
  ...booleanOptions('pairs'),
  ...stringOptions('out', 'steps', 'max-number', 'ops', 'correct-fraction', 'errors', 'distractors'),
  ...helpOption,
} as const;

function parseSteps(text: string): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  const minimum = Number(match?.[1]);
  const maximum = Number(match?.[2] ?? match?.[1]);
  if (match === null || minimum < 2 || maximum > 10 || minimum > maximum) {
    throw new UsageError(`--steps must be <min>-<max> or <n> within 2-10, got ${JSON.stringify(text)}`, organismUsage);
  }
  return [minimum, maximum];
}

function parseList<T>(flag: string, text: string, read: (name: string) => T | undefined, known: string): T[] {
  const names = text.split(',').map((name) => name.trim());
  return names.map((name) => {
    const value = read(name);
    if (value === undefined) throw new UsageError(`${flag}: unknown ${JSON.stringify(name)}; known: ${known}`, organismUsage);
    return value;
  });
}

function parseOrganismSettings(args: readonly string[]) {
  const { values } = parseCommandLine(args, organismOptions, organismUsage);
  const format = parseChoiceOption('--format', values.format, organismFormats, organismUsage, 'processbench');
  const labels = (values.labels ?? 'prefix') as TrlLabelRule;
  if (labels !== 'prefix' && labels !== 'step') throw new UsageError(`--labels must be prefix or step, got ${JSON.stringify(values.labels)}`, organismUsage);
  if (values.labels !== undefined && format !== 'trl') throw new UsageError('--labels applies to --format trl', organismUsage);
  if (values.out === '') throw new UsageError('--out must name a file', organismUsage);
  const probability = (flag: string, text: string | undefined) =>
    parseNumberOption(flag, text, (value) => value >= 0 && value <= 1, 'a number from 0 to 1', organismUsage);
  return {
    count: parseIntegerOption('--n', values.n, { minimum: 0, maximum: 100_000_000 }, organismUsage) ?? 1000,
    from: parseIntegerOption('--from', values.from, { minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, organismUsage) ?? 0,
    format,
    labels,
    pairs: values.pairs === true,
    ...(values.out !== undefined ? { out: values.out } : {}),
    organism: {
      seed: parseIntegerOption('--seed', values.seed, seedRange, organismUsage) ?? 0,
      ...(values.steps !== undefined ? { steps: parseSteps(values.steps) } : {}),
      ...(values['max-number'] !== undefined
        ? { maxNumber: parseIntegerOption('--max-number', values['max-number'], { minimum: 10, maximum: 1_000_000_000 }, organismUsage) }
        : {}),
      ...(values.ops !== undefined
        ? { operations: parseList<Operation>('--ops', values.ops, parseOperationName, '+ - * / add subtract multiply divide') }
        : {}),
      correctFraction: probability('--correct-fraction', values['correct-fraction']),
      ...(values.errors !== undefined
        ? { errorKinds: parseList<ErrorKind>('--errors', values.errors, (name) => errorKinds.find((kind) => kind === name), errorKinds.join(', ')) }
        : {}),
      distractorProbability: probability('--distractors', values.distractors),
    },
  };
}

/** `reward-lens organism`: organism items (or matched pairs) as JSON lines. */
export const organismCommand: Command = {
  name: 'organism',
  summary: 'write model-organism problems with labelled solutions (ProcessBench or TRL JSONL)',
  usage: organismUsage,
  async run(args, streams) {
    const settings = parseOrganismSettings(args);
    const organism = createOrganism(settings.organism);
    if (settings.pairs && !organism.options.errorKinds.some((kind) => singleErrorKinds.includes(kind))) {
      throw new UsageError(`--pairs needs one of ${singleErrorKinds.join(', ')} among --errors`, organismUsage);
    }
    // Fail on knobs that cannot be met before a file is created.
    if (settings.count > 0) (settings.pairs ? organism.pair : organism.item)(settings.from);

    const file = settings.out === undefined ? undefined : createWriteStream(settings.out);
    const failed = file === undefined ? undefined : once(file, 'error').then(([error]) => error as NodeJS.ErrnoException);
    const output = file ?? streams.stdout;
    let correct = 0;
    for (const { record, errorKind } of organismRecords(organism, settings)) {
      if (errorKind === null) correct++;
      await writeText(output, `${JSON.stringify(record)}\n`);
    }
    if (file !== undefined) {
      file.end();
      const error = await Promise.race([once(file, 'close').then(() => undefined), failed]);
      if (error !== undefined) throw new InvalidInputError(`cannot be written (${error.code ?? error.message})`, { location: settings.out, cause: error });
      const what = settings.pairs
        ? `${settings.count} matched pairs`
        : `${settings.count} items (${correct} correct, ${settings.count - correct} with an error)`;
      await writeText(streams.stderr, `reward-lens: wrote ${what} to ${settings.out}\n`);
    }
    return exitCodes.success;
  },
};
