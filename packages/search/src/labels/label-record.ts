import type { StepPolicy } from '../policy/step-policy.js';
import { consensusFilter, type StepJudge } from './consensus.js';
import type { LabelInput, PrefixValueStore } from './label-types.js';
import { monteCarloLabels, type MonteCarloOptions } from './monte-carlo-labels.js';
import { toTrlRecord, type TrlPrmRecord } from './trl-record.js';

export interface RecordLabellerOptions extends Pick<MonteCarloOptions, 'rollouts' | 'mode' | 'maxSteps' | 'checker'> {
  /** A second opinion (`prmJudge`): records (or steps, with `consensus: 'prefix'`) where it disagrees with the rollouts are dropped. */
  judge?: StepJudge;
  /** What the judge must agree on: the whole solution (default) or a leading prefix of steps. */
  consensus?: 'solution' | 'prefix';
  /** The TRL row's labels. Default `hard`. */
  labels?: 'hard' | 'soft';
  /** Add the Monte-Carlo values, first error and completions spent (and the judge's verdict) to each row. */
  details?: boolean;
}

/** What labelling has cost and kept so far, over every record. */
export interface LabelTally {
  completions: number;
  fullSweepCompletions: number;
  kept: number;
  dropped: number;
}

/** What `details` adds to a row: the Monte-Carlo values, the first error, the completions spent, the judge's verdict. */
export interface LabelDetails {
  values: (number | null)[];
  firstError: number | null;
  completionsSpent: number;
  fullSweepCompletions: number;
  judgeFirstError?: number | null;
  agree?: boolean[];
}

/** A labelled record: its TRL row (with the details when asked), or null when it is dropped (no labels, or the judge disagreed). */
export type LabelledRow = (TrlPrmRecord & Partial<LabelDetails>) | null;

/**
 * Labels one record at a time, as `reward-lens label` and `labelFile` do: Monte-Carlo step labels
 * from `policy` (seeded per record, values resumed from `store`), the judge's consensus filter when
 * there is a judge, then the TRL row. `tally` counts completions and kept and dropped records.
 *
 * @example
 * const label = createRecordLabeller(policy, { rollouts: 8 }, tally);
 * const row = await label({ problem, steps, reference: '42' }, { seed: 7 });
 */
export function createRecordLabeller(
  policy: StepPolicy,
  options: RecordLabellerOptions,
  tally: LabelTally,
): (input: LabelInput, context: { store?: PrefixValueStore; seed: number }) => Promise<LabelledRow> {
  return async (input, context) => {
    const labels = await monteCarloLabels(policy, input, {
      ...(options.rollouts !== undefined ? { rollouts: options.rollouts } : {}),
      ...(options.mode !== undefined ? { mode: options.mode } : {}),
      ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
      ...(options.checker ? { checker: options.checker } : {}),
      seed: context.seed,
      ...(context.store ? { store: context.store } : {}),
    });
    tally.completions += labels.completions;
    tally.fullSweepCompletions += labels.fullSweepCompletions;
    const consensus = options.judge ? await consensusFilter(input, labels, options.judge, options.consensus) : undefined;
    if (labels.hard.length === 0 || (consensus && !consensus.keep)) {
      tally.dropped++;
      return null;
    }
    tally.kept++;
    const row = toTrlRecord(input, labels, options.labels ?? 'hard', consensus?.keptSteps);
    if (!options.details) return row;
    return {
      ...row,
      values: labels.values,
      firstError: labels.firstError,
      completionsSpent: labels.completions,
      fullSweepCompletions: labels.fullSweepCompletions,
      ...(consensus ? { judgeFirstError: consensus.judgeFirstError, agree: consensus.agree } : {}),
    };
  };
}
