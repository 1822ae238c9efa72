import { calibrationNote, SequenceTooLongError, type ProcessRM, type RewardLensError } from '@reward-lens/core';
import type { RecordError, RecordInput } from './input-record.js';
import { scoredRecordsFromEvidence, type ScoredRecord } from './scored-record.js';

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
  // A calibrated model's records name the calibration set and its domain, as its evidence does.
  const notes = prm.calibration ? [...prm.notes, calibrationNote(prm.calibration)] : prm.notes;
  const threshold = evidence.gauge === 'PROBABILITY' ? prm.calibration?.threshold : undefined;
  const scored = scoredRecordsFromEvidence(evidence, { backend: prm.source.name, notes, ...(threshold ? { threshold } : {}) }, aggregateName);
  return scored.map((record, index) => {
    const error = evidence.value.errors[index];
    return error ? { error: recordError(error) } : { scored: record };
  });
}
