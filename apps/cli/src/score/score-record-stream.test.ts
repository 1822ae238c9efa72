import { describe, expect, it } from 'vitest';
import type { InputRecord, RecordInput } from './input-record.js';
import type { RecordOutcome } from './score-batch.js';
import { scoreRecordStream } from './score-record-stream.js';
import type { ScoredRecord } from './score-batch.js';

function goodRecord(line: number): InputRecord {
  return { label: { line }, input: { problem: `p${line}`, solution: `s${line}` } };
}

function badRecord(line: number): InputRecord {
  return { label: { line }, error: { code: 'INVALID_INPUT', message: `bad ${line}` } };
}

async function* fromArray(records: readonly InputRecord[]): AsyncGenerator<InputRecord> {
  yield* records;
}

/** A scorer that records its batches and gives each record its problem back as the only step. */
function fakeScorer() {
  const batches: string[][] = [];
  return {
    batches,
    async scoreInputs(inputs: readonly RecordInput[]): Promise<RecordOutcome[]> {
      batches.push(inputs.map((input) => input.problem));
      return inputs.map((input) => ({ scored: { steps: [input.problem] } as ScoredRecord }));
    },
  };
}

describe('scoreRecordStream', () => {
  it('scores in batches of the batch size and emits every record in input order', async () => {
    const records = [goodRecord(1), badRecord(2), goodRecord(3), goodRecord(4), badRecord(5), goodRecord(6), goodRecord(7)];
    const scorer = fakeScorer();
    const emitted: string[] = [];
    const progress: number[] = [];
    const totals = await scoreRecordStream(fromArray(records), {
      batchSize: 2,
      scoreInputs: scorer.scoreInputs,
      async emit(record, outcome) {
        emitted.push(`${record.label.line}:${'error' in outcome ? outcome.error.message : outcome.scored.steps[0]}`);
      },
      onProgress: (current) => progress.push(current.records),
    });
    expect(emitted).toEqual(['1:p1', '2:bad 2', '3:p3', '4:p4', '5:bad 5', '6:p6', '7:p7']);
    expect(scorer.batches).toEqual([['p1', 'p3'], ['p4', 'p6'], ['p7']]);
    expect(totals).toEqual({ records: 7, scored: 5, errors: 2 });
    expect(progress[progress.length - 1]).toBe(7);
  });

  it('emits a batch before reading past it, and bad records with nothing ahead of them at once', async () => {
    const scorer = fakeScorer();
    const emitted: number[] = [];
    const readAt: Record<number, number> = {};
    async function* slowSource(): AsyncGenerator<InputRecord> {
      for (const record of [badRecord(1), goodRecord(2), goodRecord(3), goodRecord(4)]) {
        readAt[record.label.line!] = emitted.length;
        yield record;
      }
    }
    await scoreRecordStream(slowSource(), { batchSize: 2, scoreInputs: scorer.scoreInputs, emit: async (record) => void emitted.push(record.label.line!) });
    // Line 1 went out before line 2 was read; lines 2 and 3 went out before line 4 was read.
    expect(readAt).toEqual({ 1: 0, 2: 1, 3: 1, 4: 3 });
    expect(emitted).toEqual([1, 2, 3, 4]);
  });

  it('an empty input scores nothing', async () => {
    const scorer = fakeScorer();
    const totals = await scoreRecordStream(fromArray([]), { batchSize: 8, scoreInputs: scorer.scoreInputs, emit: async () => {} });
    expect(totals).toEqual({ records: 0, scored: 0, errors: 0 });
    expect(scorer.batches).toEqual([]);
  });
});
