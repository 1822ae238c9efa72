import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError, stepDetectorFileName } from '@reward-lens/core';
import { readTrainingSplit, trainStepDetector, type DetectorTrainingEvent, type TrainStepDetectorResult } from '@reward-lens/train';
import type { Command } from '../command.js';
import { loadProcessRM } from '../load-process-rm.js';
import { modelOptions, modelOptionsHelp, parseModelChoice } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { exitCodes } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';

const trainDetectorUsage = `Usage:
  reward-lens train-detector --data <jsonl> [--model <folder>] [--out <file>] [options]

Fits a model's learned step-boundary detector: a probe over the PRM's own hidden states at one
layer, read at every token, giving the probability that a step ends after it. Each record's steps
are joined with spaces (the delimiters removed) and the label is where the delimiter was; a probe
is fitted per layer, the layer and threshold with the best boundary F1 on a validation split are
kept, and held-out precision, recall and F1 are measured on records never used to choose them.
Writes step-detector.json, which ProcessRM.fromPretrained loads from the model folder.

Data: JSONL (or a JSON array, as ProcessBench's gsm8k.json) of ProcessBench records (problem,
steps, label), TRL PRM records (prompt, completions, labels) or {problem, steps, stepLabels}; only
the steps are used.

Model:
${modelOptionsHelp}

Detector:
  --out <file>              where to write it (default: <model>/${stepDetectorFileName}; needed
                            without --model)
  --force                   replace an existing file
  --held-out <jsonl>        held-out records (default: --held-out-fraction of --data)
  --held-out-fraction <x>   share of --data held out when there is no --held-out (default 0.2)
  --validation-fraction <x> share of the rest used to choose layer and threshold (default 0.2)
  --layers <list>           layers to try, e.g. 0,2,4 (default: every one, 0 to the last)
  --lookahead <n>           1 (default): a token's features include the next token's state; 0: not
  --hidden-units <n>        an MLP probe with this many hidden units (default 0: linear)
  --max-tokens <n>          tokens fitted on per layer, at most (default 200000)
  --epochs <n>              probe training passes (default 30)
  --name <text>             the detector's name (default learned-steps-<recipe>)
  --json                    print the result as one JSON object
  -h, --help                show this help

Examples:
  reward-lens organism --count 2000 --seed 0 > organism.jsonl
  reward-lens train-detector --model my-prm --data organism.jsonl
  reward-lens train-detector --model my-prm --data ../shared/data/processbench/gsm8k.json --out gsm8k-detector.json
`;

const trainDetectorOptions = {
  ...modelOptions,
  ...stringOptions('data', 'out'),
  ...booleanOptions('force'),
  ...stringOptions('held-out', 'held-out-fraction', 'validation-fraction'),
  ...stringOptions('layers', 'lookahead', 'hidden-units', 'max-tokens', 'epochs', 'name'),
  ...booleanOptions('json'),
  ...helpOption,
} as const;

function parseLayers(text: string, usage: string): number[] {
  const layers = text.split(',').map((part) => parseIntegerOption('--layers', part.trim(), { minimum: 0, maximum: 10_000 }, usage));
  if (new Set(layers).size !== layers.length) throw new UsageError(`--layers lists a layer twice: ${JSON.stringify(text)}`, usage);
  return layers;
}

function describeEvent(event: DetectorTrainingEvent): string {
  const figures = (metrics: { precision: number; recall: number; f1: number }) =>
    `precision ${metrics.precision.toFixed(3)}, recall ${metrics.recall.toFixed(3)}, F1 ${metrics.f1.toFixed(3)}`;
  if (event.kind === 'features') return `read ${event.split}: ${event.solutions} solutions, ${event.tokens} tokens`;
  if (event.kind === 'layer') return `layer ${event.layer}: threshold ${event.threshold}, validation ${figures(event.validation)}`;
  return `held out (layer ${event.layer}): ${figures(event.metrics)} on ${event.metrics.boundaries} boundaries`;
}

function summary(result: TrainStepDetectorResult, out: string): string {
  const { detector, heldOut } = result;
  const rows = result.layers.map(
    (entry) =>
      `  ${String(entry.layer).padStart(5)}  ${entry.threshold.toFixed(4).padStart(9)}  ${entry.validation.precision.toFixed(3).padStart(9)}  ${entry.validation.recall.toFixed(3).padStart(6)}  ${entry.validation.f1.toFixed(3).padStart(5)}${entry.layer === detector.layer ? '  ◀ kept' : ''}`,
  );
  return [
    `  layer  threshold  precision  recall     F1   (validation)`,
    ...rows,
    `held out: precision ${heldOut.precision.toFixed(3)}, recall ${heldOut.recall.toFixed(3)}, F1 ${heldOut.f1.toFixed(3)} (${heldOut.truePositives} of ${heldOut.boundaries} boundaries found, ${heldOut.falsePositives} false) on ${heldOut.solutions} solutions: ${detector.heldOut.data}`,
    `wrote ${out}`,
    '',
  ].join('\n');
}

/** `reward-lens train-detector`: fits a model's learned step-boundary detector and writes step-detector.json. */
export const trainDetectorCommand: Command = {
  name: 'train-detector',
  summary: "fit a model's learned step-boundary detector (step-detector.json) from step-labelled data",
  usage: trainDetectorUsage,
  async run(args, streams) {
    const { values } = parseCommandLine(args, trainDetectorOptions, trainDetectorUsage);
    if (values.data === undefined) throw new UsageError('--data is required', trainDetectorUsage);
    if (values.out === undefined && values.model === undefined) throw new UsageError('--out is required without --model', trainDetectorUsage);
    const fraction = (flag: 'held-out-fraction' | 'validation-fraction', fallback: number) =>
      parseNumberOption(`--${flag}`, values[flag], (value) => value > 0 && value < 1, 'a number between 0 and 1', trainDetectorUsage) ?? fallback;
    const positive = (flag: 'hidden-units' | 'max-tokens' | 'epochs', minimum: number) =>
      parseIntegerOption(`--${flag}`, values[flag], { minimum, maximum: 1e9 }, trainDetectorUsage);
    const lookahead = parseIntegerOption('--lookahead', values.lookahead, { minimum: 0, maximum: 1 }, trainDetectorUsage) ?? 1;
    const layers = values.layers === undefined ? undefined : parseLayers(values.layers, trainDetectorUsage);
    const choice = parseModelChoice(values, trainDetectorUsage);
    // The splits and the probe are seeded with --seed (the tiny model's seed; 0 with --model).
    const seed = choice.seed ?? 0;
    const out = values.out ?? join(values.model!, stepDetectorFileName);
    if (values.force !== true && (await stat(out).catch(() => undefined)) !== undefined) {
      throw new InvalidInputError('already exists; pass --force to replace it', { location: out });
    }

    // The held-out share is read only when there is no held-out file.
    const split = await readTrainingSplit({
      data: values.data,
      ...(values['held-out'] !== undefined ? { heldOut: values['held-out'] } : {}),
      heldOutFraction: values['held-out'] !== undefined ? 0.2 : fraction('held-out-fraction', 0.2),
      seed,
    });
    const { training: data, heldOut } = split;
    const heldOutDescription = `${split.heldOutDescription}, steps joined with spaces`;

    const prm = await loadProcessRM({ ...choice, stepDetection: 'delimiter' });
    try {
      const result = await trainStepDetector({
        prm,
        data,
        heldOut,
        heldOutDescription,
        dataDescription: `${data.length} records of ${values.data}`,
        validationFraction: fraction('validation-fraction', 0.2),
        lookahead: lookahead as 0 | 1,
        seed,
        ...(layers ? { layers } : {}),
        ...(values.name !== undefined ? { name: values.name } : {}),
        ...(positive('hidden-units', 0) !== undefined ? { hiddenUnits: positive('hidden-units', 0)! } : {}),
        ...(positive('max-tokens', 1) !== undefined ? { maxTokens: positive('max-tokens', 1)! } : {}),
        ...(positive('epochs', 1) !== undefined ? { probe: { epochs: positive('epochs', 1)! } } : {}),
        onEvent: (event) => {
          if (!values.json) void writeText(streams.stderr, `reward-lens: ${describeEvent(event)}\n`);
        },
      });
      await writeFile(out, `${JSON.stringify(result.detector)}\n`);
      if (values.json) {
        await writeText(
          streams.stdout,
          `${JSON.stringify({ file: out, name: result.detector.name, layer: result.detector.layer, threshold: result.detector.threshold, heldOut: result.heldOut, layers: result.layers, skipped: result.skipped })}\n`,
        );
      } else {
        await writeText(streams.stdout, summary(result, out));
      }
      return exitCodes.success;
    } finally {
      await prm.dispose();
    }
  },
};
