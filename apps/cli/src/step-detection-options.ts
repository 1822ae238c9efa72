import { readFile } from 'node:fs/promises';
import { InvalidInputError, stepDetectionModes, validateStepDetector, type StepDetectionMode, type StepDetector } from '@reward-lens/core';
import { UsageError } from './usage-error.js';
import { stringOptions } from './option-table.js';
import { parseChoiceOption } from './parse-choice-option.js';

/** The flags that choose how a solution given as one text is split into steps. */
export const stepDetectionOptions = stringOptions('step-detection', 'step-detector');

export const stepDetectionOptionsHelp = `  --step-detection <mode>   auto (default): the model's learned step-boundary detector splits a
                            solution the delimiter leaves as one step; learned: it splits every
                            solution given as one text (the delimiter is not used); delimiter:
                            never. The notes say which ran, with its held-out precision/recall
  --step-detector <file>    a step-detector.json to use instead of the model folder's (one that
                            reward-lens train-detector wrote for this model)`;

export interface StepDetectionChoice {
  stepDetection?: StepDetectionMode;
  /** A detector file given on the command line (read when the model loads). */
  stepDetectorFile?: string;
}

export function parseStepDetectionChoice(values: { 'step-detection'?: string; 'step-detector'?: string }, usage: string): StepDetectionChoice {
  const mode = parseChoiceOption('--step-detection', values['step-detection'], stepDetectionModes, usage);
  if (values['step-detector'] === '') throw new UsageError('--step-detector must name a file', usage);
  return {
    ...(mode !== undefined ? { stepDetection: mode } : {}),
    ...(values['step-detector'] !== undefined ? { stepDetectorFile: values['step-detector'] } : {}),
  };
}

/** A step-detector.json, read and checked; a missing or malformed one is an error naming the file. */
export async function readStepDetectorFile(path: string): Promise<StepDetector> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidInputError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { location: path, cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`is not valid JSON (${(error as Error).message})`, { location: path, cause: error });
  }
  return validateStepDetector(value, path);
}
