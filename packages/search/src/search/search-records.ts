import { InvalidInputError, type ProcessRM } from '@reward-lens/core';
import { defaultAnswerChecker, type AnswerChecker } from '../answers/answer-checker.js';
import type { StepPolicy } from '../policy/step-policy.js';
import type { RecordItem, RecordOutcome } from '../records/record-item.js';
import { search } from './search.js';
import type { SearchOptions, SearchResult, SearchStrategy } from './search-types.js';

/** A searched record: its problem, the result, and (when the record gives an answer) whether the chosen answer is right. */
export interface Searched {
  problem: string;
  result: SearchResult;
  correct?: boolean;
}

/**
 * Searches a stream of problems (`{"problem", "answer" or "reference"}`) one at a time, in input
 * order; a bad record's outcome is its error, and the stream goes on. The chosen solution's
 * answer is judged with `judge` (default: `defaultAnswerChecker`) against the record's answer.
 *
 * @example
 * for await (const outcome of searchRecords(prm, policy, items, { strategy: 'beam', n: 8 })) console.log('error' in outcome ? outcome.error : outcome.result.pick);
 */
export async function* searchRecords<Item extends RecordItem>(
  prm: ProcessRM,
  policy: StepPolicy,
  items: AsyncIterable<Item>,
  options: SearchOptions & { strategy: SearchStrategy; judge?: AnswerChecker },
): AsyncGenerator<RecordOutcome<Item, Searched>> {
  const { judge = defaultAnswerChecker, ...searchOptions } = options;
  for await (const item of items) {
    if ('error' in item) {
      yield { item, error: item.error };
      continue;
    }
    const { problem } = item.value;
    if (typeof problem !== 'string') {
      yield { item, error: { code: InvalidInputError.code, message: '"problem" must be a string' } };
      continue;
    }
    const reference = item.value.answer ?? item.value.reference;
    const result = await search(prm, policy, problem, searchOptions);
    const chosen = result.pick === null ? undefined : result.solutions[result.pick];
    yield {
      item,
      problem,
      result,
      ...(reference !== undefined ? { correct: chosen?.answer != null && judge.equal(chosen.answer, String(reference), { problem }) } : {}),
    };
  }
}
