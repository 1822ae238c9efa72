import { aggregatorNames, type StepDelimiter } from '@reward-lens/core';
import type { ModelSettings } from '../load-process-rm.js';
import { modelOptions, parseModelChoice } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseStepDetectionChoice, stepDetectionOptions } from '../step-detection-options.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { UsageError } from '../usage-error.js';
import type { InputSpec } from './input-spec.js';
import { parseDelimiterRegex } from './parse-delimiter-regex.js';
import { unescapeDelimiter } from './unescape-delimiter.js';
import { booleanOptions, helpOption, quietOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

export const scoreOptions = {
  ...stringOptions('problem', 'solution'),
  step: { type: 'string', multiple: true },
  file: { type: 'string', short: 'f' },
  ...booleanOptions('json', 'table'),
  ...modelOptions,
  ...stringOptions('vllm', 'vllm-model', 'vllm-api-key'),
  ...stringOptions('truncation', 'delimiter', 'delimiter-regex', 'aggregate', 'batch-size'),
  ...stepDetectionOptions,
  ...quietOption,
  ...helpOption,
} as const;

export interface ScoreSettings extends ModelSettings {
  input: InputSpec;
  /** Absent: the recipe's delimiter (`"\n"` for the tiny model). */
  delimiter?: StepDelimiter;
  batchSize: number;
  truncation: 'none' | 'left';
  aggregate: string;
  /** `auto`: JSON lines for JSONL input, a table otherwise. */
  output: 'auto' | 'json' | 'table';
  quiet: boolean;
  /** Score on a vLLM server (`--vllm`) instead of a local model. */
  vllm?: VllmSettings;
}

export interface VllmSettings {
  url: string;
  /** The served model name. */
  model: string;
  apiKey?: string;
}

export const defaultBatchSize = 8;
/** A batch is one padded forward pass held in memory; far beyond this is a typo, not a plan. */
const maximumBatchSize = 4096;

function inputSpecOf(values: ReturnType<typeof parseScoreCommandLine>['values'], positionals: string[], stdinIsTerminal: boolean, usage: string): InputSpec {
  const steps = values.step ?? [];
  const fromFlags = values.problem !== undefined || values.solution !== undefined || steps.length > 0;
  const fromFile = values.file !== undefined;
  const fromStdin = positionals.includes('-');
  const unexpected = positionals.find((positional) => positional !== '-');
  if (unexpected !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(unexpected)} (give a file with --file)`, usage);
  if ([fromFlags, fromFile, fromStdin].filter(Boolean).length > 1) {
    throw new UsageError('give one input: --problem with --solution or --step, or --file <path>, or - for stdin', usage);
  }
  if (fromFlags) {
    if (values.problem === undefined) throw new UsageError('--solution and --step need --problem', usage);
    if (values.solution !== undefined && steps.length > 0) throw new UsageError('give either --solution or --step, not both', usage);
    if (values.solution !== undefined) return { kind: 'flags', record: { problem: values.problem, solution: values.solution } };
    if (steps.length > 0) return { kind: 'flags', record: { problem: values.problem, steps } };
    throw new UsageError('--problem needs --solution <text> or one --step <text> per step', usage);
  }
  if (fromFile) return values.file === '-' ? { kind: 'stdin', explicit: true } : { kind: 'file', path: values.file! };
  if (fromStdin) return { kind: 'stdin', explicit: true };
  if (stdinIsTerminal) throw new UsageError('no input: give --problem with --solution or --step, --file <path>, or JSON/JSONL on stdin', usage);
  return { kind: 'stdin', explicit: false };
}

function delimiterOf(values: ReturnType<typeof parseScoreCommandLine>['values'], usage: string): StepDelimiter | undefined {
  const text = values.delimiter;
  const pattern = values['delimiter-regex'];
  if (text !== undefined && pattern !== undefined) throw new UsageError('give either --delimiter or --delimiter-regex, not both', usage);
  if (pattern !== undefined) return parseDelimiterRegex(pattern, usage);
  if (text === undefined) return undefined;
  const delimiter = unescapeDelimiter(text);
  if (delimiter.length === 0) throw new UsageError('--delimiter must not be empty', usage);
  return delimiter;
}

/** `--vllm <url> --vllm-model <name>` with the recipe that reads it; a local model's flags do not mix in. */
function vllmOf(values: ReturnType<typeof parseScoreCommandLine>['values'], usage: string): VllmSettings | undefined {
  const url = values.vllm;
  const model = values['vllm-model'];
  if (url === undefined) {
    if (model !== undefined || values['vllm-api-key'] !== undefined) throw new UsageError('--vllm-model and --vllm-api-key go with --vllm <base-url>', usage);
    return undefined;
  }
  if (model === undefined || model === '') throw new UsageError('--vllm needs --vllm-model <served model name> (what the server lists at /v1/models)', usage);
  const local = (['model', 'backend', 'seed'] as const).find((flag) => values[flag] !== undefined);
  if (local !== undefined) throw new UsageError(`--${local} chooses a local model; --vllm scores on the server`, usage);
  if (values.recipe === undefined)
    throw new UsageError('--vllm needs --recipe <name> (qwen2.5-math-prm or math-shepherd): how the served model is read', usage);
  if (values.truncation === 'left') throw new UsageError('--truncation left needs the tokenizer here; with --vllm the server tokenizes', usage);
  if (values['step-detector'] !== undefined || values['step-detection'] === 'learned') {
    throw new UsageError("the learned step detector reads the model's hidden states, which --vllm does not give", usage);
  }
  return { url, model, ...(values['vllm-api-key'] !== undefined ? { apiKey: values['vllm-api-key'] } : {}) };
}

function parseScoreCommandLine(args: readonly string[], usage: string) {
  return parseCommandLine(args, scoreOptions, usage, true);
}

/** The `score` command line as settings; every mistake in it is a usage error, found before any model loads. */
export function parseScoreSettings(args: readonly string[], usage: string, stdinIsTerminal: boolean): ScoreSettings {
  const { values, positionals } = parseScoreCommandLine(args, usage);
  if (values.json === true && values.table === true) throw new UsageError('give either --json or --table, not both', usage);
  const aggregate = parseChoiceOption('--aggregate', values.aggregate, aggregatorNames(), usage, 'min');
  const truncation = values.truncation ?? 'none';
  if (truncation !== 'none' && truncation !== 'left') throw new UsageError(`--truncation must be none or left, got ${JSON.stringify(truncation)}`, usage);
  const delimiter = delimiterOf(values, usage);
  const vllm = vllmOf(values, usage);
  return {
    ...(vllm ? { vllm } : {}),
    input: inputSpecOf(values, positionals, stdinIsTerminal, usage),
    ...parseModelChoice(values, usage),
    ...parseStepDetectionChoice(values, usage),
    truncation,
    ...(delimiter !== undefined ? { delimiter } : {}),
    batchSize: parseIntegerOption('--batch-size', values['batch-size'], { minimum: 1, maximum: maximumBatchSize }, usage) ?? defaultBatchSize,
    aggregate,
    output: values.json === true ? 'json' : values.table === true ? 'table' : 'auto',
    quiet: values.quiet === true,
  };
}
