import { InvalidInputError, type ProcessRM } from '@reward-lens/core';
import { defaultAnswerChecker } from '../answers/answer-checker.js';
import type { RecordItem, RecordOutcome } from '../records/record-item.js';
import { readRerankRecord, type RerankRecord } from './read-rerank-record.js';
import { rerank, type RerankOptions, type RerankResult } from './rerank.js';

/** A reranked record: its input, the result, and (when the record gives a reference) whether the picked answer is right. */
export interface Reranked {
  record: RerankRecord;
  result: RerankResult;
  correct?: boolean;
}

/**
 * Reranks a stream of records (`readRerankRecord`'s shape) one at a time, in input order; a bad
 * record's outcome is its error, and the stream goes on. The picked answer is judged with
 * `options.checker` (its extraction, normalisation and equality) against the record's reference.
 *
 * @example
 * for await (const outcome of rerankRecords(prm, items, { method: 'weighted-vote' })) console.log('error' in outcome ? outcome.error : outcome.result.pick);
 */
export async function* rerankRecords<Item extends RecordItem>(
  prm: ProcessRM,
  items: AsyncIterable<Item>,
  options: RerankOptions = {},
): AsyncGenerator<RecordOutcome<Item, Reranked>> {
  const checker = options.checker ?? defaultAnswerChecker;
  for await (const item of items) {
    if ('error' in item) {
      yield { item, error: item.error };
      continue;
    }
    const record = readRerankRecord(item.value);
    if (typeof record === 'string') {
      yield { item, error: { code: InvalidInputError.code, message: record } };
      continue;
    }
    const result = await rerank(prm, record.problem, record.candidates, options);
    const picked = result.pick === null ? null : result.candidates[result.pick]!.answer;
    yield {
      item,
      record,
      result,
      ...(record.reference !== undefined ? { correct: picked !== null && checker.equal(picked, record.reference, { problem: record.problem }) } : {}),
    };
  }
}
