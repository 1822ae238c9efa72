import { parseRecordsText, type ParseOptions } from './parse-records.js';
import { readTextFile } from './read-text-file.js';
import { splitHeldOut } from './split-held-out.js';
import type { StepRecord } from './step-record.js';

/**
 * The step-labelled records of a file (JSONL or a JSON array, as `parseRecordsText` reads them).
 * A file that cannot be read is an `InvalidInputError` naming the file and saying what it was for
 * (`what`: "the data"), so that a user sees which of several paths was wrong.
 */
export async function readRecordsFile(path: string, what: string, options: ParseOptions = {}): Promise<StepRecord[]> {
  return parseRecordsText(await readTextFile(path, what), path, options);
}

export interface TrainingSplitOptions {
  /** The records' file. */
  data: string;
  /** A file of held-out records; without it, `heldOutFraction` of `data` is held out at random. */
  heldOut?: string;
  heldOutFraction: number;
  /** Seeds the random split. */
  seed: number;
  parse?: ParseOptions;
}

export interface TrainingSplit {
  /** Every record of `data`. */
  records: StepRecord[];
  training: StepRecord[];
  heldOut: StepRecord[];
  /** Says where the held-out records came from, for a model card or a detector's file. */
  heldOutDescription: string;
}

/**
 * Reads the training records and their held-out set: a held-out file when there is one (all of
 * `data` then trains), else a seeded random share of `data` (`splitHeldOut`).
 *
 * @example
 * const { training, heldOut, heldOutDescription } = await readTrainingSplit({ data: 'organism.jsonl', heldOutFraction: 0.05, seed: 0 });
 */
export async function readTrainingSplit(options: TrainingSplitOptions): Promise<TrainingSplit> {
  const parse = options.parse ?? {};
  const records = await readRecordsFile(options.data, 'the data', parse);
  if (options.heldOut !== undefined) {
    const heldOut = await readRecordsFile(options.heldOut, 'the held-out data', parse);
    return { records, training: records, heldOut, heldOutDescription: `${heldOut.length} records of ${options.heldOut}` };
  }
  const { training, heldOut } = splitHeldOut(records, options.heldOutFraction, options.seed);
  const heldOutDescription = `${heldOut.length} records of ${options.data} held out at random (fraction ${options.heldOutFraction}, seed ${options.seed})`;
  return { records, training, heldOut, heldOutDescription };
}
