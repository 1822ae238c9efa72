import {
  recordLabels,
  SequenceTooLongError,
  recordsFromEvidence,
  type ProcessRM,
  type RecordAggregate,
  type RewardLensError,
  type StepScoreRecord,
} from '@reward-lens/core';
import type { RecordError, RecordInput } from './input-record.js';

/** One record's scores as the command line prints them: core's record, with the chosen aggregate. */
export type ScoredRecord = StepScoreRecord & { aggregate: RecordAggregate };

export type RecordOutcome = { scored: ScoredRecord } | { error: RecordError };

/** A record's error in the words of the command line: core suggests an option, the user types a flag. */
function recordError(error: RewardLensError): RecordError {
  const message = SequenceTooLongError.isInstance(error) ? error.message.replace(/pass truncation: 'left'/, 'pass --truncation left') : error.message;
  return { code: error.code, message };
}

/**
 * Scores records in one batched call. Core reports a record it cannot score (an empty solution, a
 * sequence too long) in `value.errors` and scores the others (`onInvalid: 'report'`); those come
 * back as error records. Other errors are bugs or infrastructure failures and propagate.
 */
export async function scoreBatch(prm: ProcessRM, inputs: readonly RecordInput[], aggregateName: string): Promise<RecordOutcome[]> {
  const evidence = await prm.stepScores(inputs, { onInvalid: 'report' });
  const scored = recordsFromEvidence(evidence, recordLabels(prm, evidence.gauge), { aggregate: aggregateName }) as ScoredRecord[];
  return scored.map((record, index) => {
    const error = evidence.value.errors[index];
    return error ? { error: recordError(error) } : { scored: record };
  });
}
