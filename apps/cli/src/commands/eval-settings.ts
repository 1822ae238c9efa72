import type { ModelSettings } from '../load-process-rm.js';
import { modelOptions, parseModelChoice } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { UsageError } from '../usage-error.js';
import { booleanOptions, helpOption, quietOption, stringOptions } from '../option-table.js';

export const evalOptions = {
  data: { type: 'string', short: 'd' },
  ...stringOptions('format', 'calibration', 'calibration-method', 'calibration-domain', 'save-calibration', 'threshold', 'predictions', 'report'),
  ...booleanOptions('json'),
  ...modelOptions,
  ...stringOptions('batch-size', 'truncation'),
  ...quietOption,
  ...helpOption,
} as const;

export interface EvalSettings extends ModelSettings {
  data: string;
  format: 'processbench' | 'prmbench';
  calibration?: { path: string; method: 'platt' | 'isotonic'; domain: string; save?: string };
  threshold?: number;
  predictions?: string;
  report?: string;
  json: boolean;
  batchSize: number;
  truncation: 'none' | 'left';
  quiet: boolean;
}

/** The `eval` command line as settings; every mistake is a usage error, found before any model loads. */
export function parseEvalSettings(args: readonly string[], usage: string): EvalSettings {
  const { values, positionals } = parseCommandLine(args, evalOptions, usage, true);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (give the data with --data)`, usage);
  if (values.data === undefined || values.data === '') throw new UsageError('--data <file> is required: a ProcessBench-format JSON array or JSONL file', usage);
  const format = values.format ?? 'processbench';
  if (format !== 'processbench' && format !== 'prmbench')
    throw new UsageError(`--format must be processbench or prmbench, got ${JSON.stringify(format)}`, usage);
  if (values.calibration !== undefined && values.threshold !== undefined) {
    throw new UsageError('give either --calibration (the threshold is chosen there) or --threshold (a fixed one), not both', usage);
  }
  const method = values['calibration-method'] ?? 'isotonic';
  if (method !== 'platt' && method !== 'isotonic') throw new UsageError(`--calibration-method must be platt or isotonic, got ${JSON.stringify(method)}`, usage);
  for (const flag of ['calibration-method', 'calibration-domain', 'save-calibration'] as const) {
    if (values[flag] !== undefined && values.calibration === undefined) throw new UsageError(`--${flag} needs --calibration <file>`, usage);
  }
  const truncation = values.truncation ?? 'none';
  if (truncation !== 'none' && truncation !== 'left') throw new UsageError(`--truncation must be none or left, got ${JSON.stringify(truncation)}`, usage);
  if (values.predictions !== undefined && format === 'prmbench') throw new UsageError('--predictions is for ProcessBench-format data', usage);
  const settings: EvalSettings = {
    data: values.data,
    format,
    ...parseModelChoice(values, usage),
    json: values.json === true,
    batchSize: parseIntegerOption('--batch-size', values['batch-size'], { minimum: 1, maximum: 4096 }, usage) ?? 8,
    truncation,
    quiet: values.quiet === true,
  };
  if (values.calibration !== undefined) {
    settings.calibration = {
      path: values.calibration,
      method,
      domain: values['calibration-domain'] ?? `the solutions of ${values.calibration}`,
      ...(values['save-calibration'] !== undefined ? { save: values['save-calibration'] } : {}),
    };
  }
  if (values.threshold !== undefined) settings.threshold = parseNumberOption('--threshold', values.threshold, Number.isFinite, 'a number', usage);
  if (values.predictions !== undefined) settings.predictions = values.predictions;
  if (values.report !== undefined) settings.report = values.report;
  return settings;
}
