import { RewardLensError, SequenceTooLongError, type ProcessRM } from '@reward-lens/core';
import type { RecordError, RecordInput } from './input-record.js';
import { scoredRecordsFromEvidence, type ScoredRecord } from './scored-record.js';

export type RecordOutcome = { scored: ScoredRecord } | { error: RecordError };

/** A record's error in the words of the command line: core suggests an option, the user types a flag. */
function recordError(error: RewardLensError): RecordError {
  const message = SequenceTooLongError.isInstance(error) ? error.message.replace(/pass truncation: 'left'/, 'pass --truncation left') : error.message;
  return { code: error.code, message };
}

/**
 * Scores records in one batched call. Core fails a batch as a whole when one record is bad (an
 * empty solution, a sequence too long), so on a reward-lens error the records are retried one
 * by one and only the bad ones come back as errors. Other errors are bugs and propagate.
 */
export async function scoreBatch(prm: ProcessRM, inputs: readonly RecordInput[], aggregateName: string): Promise<RecordOutcome[]> {
  try {
    const evidence = await prm.stepScores(inputs);
    return scoredRecordsFromEvidence(evidence, { backend: prm.backend.name, notes: prm.notes }, aggregateName).map((scored) => ({ scored }));
  } catch (error) {
    if (!RewardLensError.isInstance(error)) throw error;
    if (inputs.length === 1) return [{ error: recordError(error) }];
  }
  const outcomes: RecordOutcome[] = [];
  for (const input of inputs) outcomes.push(...(await scoreBatch(prm, [input], aggregateName)));
  return outcomes;
}
