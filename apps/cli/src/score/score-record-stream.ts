import type { InputRecord, RecordInput } from './input-record.js';
import type { RecordOutcome } from './score-batch.js';

export interface RecordStreamTotals {
  records: number;
  scored: number;
  errors: number;
}

export interface RecordStreamOptions {
  /** Records per scoring call; each call is one batched forward pass. */
  batchSize: number;
  scoreInputs(inputs: readonly RecordInput[]): Promise<RecordOutcome[]>;
  /** Called once per record, in input order. */
  emit(record: InputRecord, outcome: RecordOutcome): Promise<void>;
  /** Called after each batch is emitted. */
  onProgress?(totals: RecordStreamTotals): void;
}

/**
 * Scores records as they are read, `batchSize` at a time, and emits every record's outcome in
 * input order as soon as its batch is done. Records already known to be bad wait in line with the
 * rest, so output order always follows input order while at most one batch is held in memory.
 */
export async function scoreRecordStream(records: AsyncIterable<InputRecord>, options: RecordStreamOptions): Promise<RecordStreamTotals> {
  const totals: RecordStreamTotals = { records: 0, scored: 0, errors: 0 };
  let pending: InputRecord[] = [];
  let pendingInputs = 0;

  const flush = async () => {
    const inputs = pending.flatMap((record) => ('input' in record ? [record.input] : []));
    const outcomes = inputs.length > 0 ? await options.scoreInputs(inputs) : [];
    let next = 0;
    for (const record of pending) {
      const outcome: RecordOutcome = 'input' in record ? outcomes[next++]! : { error: record.error };
      totals.records += 1;
      if ('error' in outcome) totals.errors += 1;
      else totals.scored += 1;
      await options.emit(record, outcome);
    }
    pending = [];
    pendingInputs = 0;
    options.onProgress?.({ ...totals });
  };

  for await (const record of records) {
    pending.push(record);
    if ('input' in record) pendingInputs += 1;
    // A bad record with nothing to score ahead of it goes out at once instead of waiting for a batch.
    if (pendingInputs >= options.batchSize || pendingInputs === 0) await flush();
  }
  if (pending.length > 0) await flush();
  return totals;
}
