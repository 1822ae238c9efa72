import { checkScoringRecord, InvalidInputError } from '@reward-lens/core';
import type { RecordScorer } from '@reward-lens/serve';
import { formatRecordJson } from '../score/format-record-json.js';
import type { RecordInput } from '../score/input-record.js';
import { scoreBatch } from '../score/score-batch.js';

/**
 * `/v1/score` records as `reward-lens score --json` reads and prints them: the same shape check
 * and messages, the same scoring and errors, the same JSON, so a record's answer is exactly its line.
 */
export const commandLineRecords: RecordScorer = {
  parse(value) {
    const checked = checkScoringRecord(value);
    return 'error' in checked ? { error: { code: InvalidInputError.code, message: checked.error } } : { input: checked.record };
  },
  async score(prm, inputs, { aggregate }) {
    const outcomes = await scoreBatch(prm, inputs as readonly RecordInput[], aggregate);
    return outcomes.map((outcome) => JSON.parse(formatRecordJson({}, outcome)) as Record<string, unknown>);
  },
};
