import { InvalidInputError } from '@reward-lens/core';
import type { LabelInput, PrefixValueStore } from '../labels/label-types.js';
import { seedFromParts } from '../policy/derive-seed.js';
import { LabelJournal } from './label-journal.js';

/** One record of a labelling input: ready to label, or already known to be bad. `key` names it (a line number), stable across runs. */
export type LabelJob = { key: string; text: string; input: LabelInput } | { key: string; text: string; error: { code: string; message: string } };

export interface LabelFileOptions {
  jobs: AsyncIterable<LabelJob>;
  outputPath: string;
  statePath?: string;
  /** Everything that changes the labels (rollouts, mode, seed, policy): a resumed run must have the same. */
  settings: unknown;
  /**
   * Labels one record: its output lines (`""` when it is filtered out). `seed` is the record's own, the same in every run.
   * An `InvalidInputError` it throws (a prefix the policy cannot continue) makes the record an error, reported through `onError`.
   */
  label: (input: LabelInput, context: { store: PrefixValueStore; seed: number; key: string }) => Promise<string>;
  onError?: (job: Extract<LabelJob, { error: unknown }>) => void | Promise<void>;
  onProgress?: (totals: LabelFileTotals) => void;
}

export interface LabelFileTotals {
  records: number;
  /** Finished by an earlier run, skipped. */
  resumed: number;
  labelled: number;
  errors: number;
  /** Prefix values found in the journal when the run started. */
  reusedPrefixValues: number;
}

/** The rollout seed of one record: a function of the run's settings, its key and its text, so that every run (resumed or not, to a file or not) draws the same rollouts. */
export function recordSeed(settings: unknown, key: string, text: string): number {
  return seedFromParts(seedFromParts(JSON.stringify(settings)), key, seedFromParts(text).toString(16));
}

/**
 * Labels a stream of records into a file, resumably (see `LabelJournal`): run it again after a
 * kill and it goes on where it stopped, with the same output it would have written in one go.
 */
export async function labelFile(options: LabelFileOptions): Promise<LabelFileTotals> {
  const journal = await LabelJournal.open({
    outputPath: options.outputPath,
    ...(options.statePath ? { statePath: options.statePath } : {}),
    settings: options.settings,
  });
  const totals: LabelFileTotals = { records: 0, resumed: 0, labelled: 0, errors: 0, reusedPrefixValues: journal.resumed.prefixValues };
  try {
    for await (const job of options.jobs) {
      totals.records++;
      const fingerprint = seedFromParts(job.text).toString(16);
      if ('error' in job) {
        totals.errors++;
        await options.onError?.(job);
      } else if (journal.isDone(job.key, fingerprint)) {
        totals.resumed++;
      } else {
        let lines: string;
        try {
          lines = await options.label(job.input, {
            store: journal.storeFor(job.key, fingerprint),
            seed: recordSeed(options.settings, job.key, job.text),
            key: job.key,
          });
        } catch (error) {
          // A record the policy cannot continue (an InvalidInputError) is reported, and the run goes on.
          if (!InvalidInputError.isInstance(error)) throw error;
          totals.errors++;
          await options.onError?.({ key: job.key, text: job.text, error: { code: error.code, message: error.message } });
          options.onProgress?.(totals);
          continue;
        }
        await journal.finish(job.key, fingerprint, lines);
        totals.labelled++;
      }
      options.onProgress?.(totals);
    }
  } finally {
    await journal.close();
  }
  return totals;
}
