import { InvalidInputError } from '@reward-lens/core';
import { seedFromParts } from '../policy/derive-seed.js';
import type { LabelInput, PrefixValueStore } from './label-types.js';

/** One record of a labelling input: ready to label, or already known to be bad. `key` names it (a line number), stable across runs. */
export type LabelJob = { key: string; text: string; input: LabelInput } | { key: string; text: string; error: { code: string; message: string } };

/** A bad record, reported as data so that the run goes on. */
export type FailedLabelJob = Extract<LabelJob, { error: unknown }>;

export interface LabelJobsTotals {
  records: number;
  /** Finished by an earlier run, skipped. */
  resumed: number;
  labelled: number;
  errors: number;
  /** Prefix values found in the journal when the run started. */
  reusedPrefixValues: number;
}

/** Where labelled records go, and what an earlier run left: `labelFile`'s journal, or nothing (a run to a stream). */
export interface LabelSink {
  /** True for a record an earlier run finished (skipped). */
  isDone?(key: string, fingerprint: string): boolean;
  /** The prefix values already computed for this record. */
  storeFor?(key: string, fingerprint: string): PrefixValueStore;
  /** Takes a record's output lines, in input order. */
  write(key: string, fingerprint: string, lines: string): Promise<void>;
  /** Prefix values found when the run started. */
  reusedPrefixValues?: number;
}

export interface LabelJobsOptions {
  jobs: AsyncIterable<LabelJob>;
  /** Everything that changes the labels (rollouts, mode, seed, policy): part of every record's seed. */
  settings: unknown;
  /**
   * Labels one record: its output lines (`""` when it is filtered out). `seed` is the record's own, the same in every run.
   * An `InvalidInputError` it throws (a prefix the policy cannot continue) makes the record an error, reported through `onError`.
   */
  label: (input: LabelInput, context: { store?: PrefixValueStore; seed: number; key: string }) => Promise<string>;
  onError?: (job: FailedLabelJob) => void | Promise<void>;
  onProgress?: (totals: LabelJobsTotals) => void;
}

/** The rollout seed of one record: a function of the run's settings, its key and its text, so that every run (resumed or not, to a file or not) draws the same rollouts. */
export function recordSeed(settings: unknown, key: string, text: string): number {
  return seedFromParts(seedFromParts(JSON.stringify(settings)), key, seedFromParts(text).toString(16));
}

/**
 * Labels a stream of records into `sink`, one record at a time and in input order. A bad record
 * (or one the policy cannot continue) is counted and reported through `onError`, and the run goes
 * on; other errors propagate. `labelFile` runs this over its journal; a run to stdout over a sink
 * that only writes.
 *
 * @example
 * const totals = await labelJobs({ jobs, settings, label }, { write: async (_key, _fingerprint, lines) => void process.stdout.write(lines) });
 */
export async function labelJobs(options: LabelJobsOptions, sink: LabelSink): Promise<LabelJobsTotals> {
  const totals: LabelJobsTotals = { records: 0, resumed: 0, labelled: 0, errors: 0, reusedPrefixValues: sink.reusedPrefixValues ?? 0 };
  for await (const job of options.jobs) {
    totals.records++;
    const fingerprint = seedFromParts(job.text).toString(16);
    if ('error' in job) {
      totals.errors++;
      await options.onError?.(job);
    } else if (sink.isDone?.(job.key, fingerprint) === true) {
      totals.resumed++;
    } else {
      let lines: string;
      try {
        const store = sink.storeFor?.(job.key, fingerprint);
        lines = await options.label(job.input, { ...(store ? { store } : {}), seed: recordSeed(options.settings, job.key, job.text), key: job.key });
      } catch (error) {
        // A record the policy cannot continue (an InvalidInputError) is reported, and the run goes on.
        if (!InvalidInputError.isInstance(error)) throw error;
        totals.errors++;
        await options.onError?.({ key: job.key, text: job.text, error: { code: error.code, message: error.message } });
        options.onProgress?.(totals);
        continue;
      }
      await sink.write(job.key, fingerprint, lines);
      totals.labelled++;
    }
    options.onProgress?.(totals);
  }
  return totals;
}
