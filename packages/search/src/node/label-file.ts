import { labelJobs, type LabelJobsOptions, type LabelJobsTotals } from '../labels/label-jobs.js';
import type { LabelInput, PrefixValueStore } from '../labels/label-types.js';
import { LabelJournal } from './label-journal.js';

export interface LabelFileOptions extends Omit<LabelJobsOptions, 'label'> {
  outputPath: string;
  statePath?: string;
  /** Everything that changes the labels (rollouts, mode, seed, policy): a resumed run must have the same. */
  settings: unknown;
  /**
   * Labels one record: its output lines (`""` when it is filtered out). `seed` is the record's own, the same in every run.
   * An `InvalidInputError` it throws (a prefix the policy cannot continue) makes the record an error, reported through `onError`.
   */
  label: (input: LabelInput, context: { store: PrefixValueStore; seed: number; key: string }) => Promise<string>;
}

export type LabelFileTotals = LabelJobsTotals;

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
  try {
    return await labelJobs(
      // The journal gives every record a store, so `store` is always there.
      { ...options, label: (input, context) => options.label(input, { ...context, store: context.store! }) },
      {
        isDone: (key, fingerprint) => journal.isDone(key, fingerprint),
        storeFor: (key, fingerprint) => journal.storeFor(key, fingerprint),
        write: (key, fingerprint, lines) => journal.finish(key, fingerprint, lines),
        reusedPrefixValues: journal.resumed.prefixValues,
      },
    );
  } finally {
    await journal.close();
  }
}
